import pg from 'pg';
import { migrationsFolder, migrationsIn, refuseNewer, type Migration, type MigrateResult } from '../migrations.js';

/** The PostgreSQL migrations: sql/postgres/, a baseline at version 31 (SQLite's 1-31), then 32 on. */
export const loadPostgresMigrations = (dir = migrationsFolder('postgres')): Migration[] => migrationsIn(dir);

/** One key for every promo: the advisory lock that lets one server migrate while the others wait. */
const MIGRATE_LOCK = "hashtext('promo:migrate')";

async function versionOf(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ v: string | null }>('SELECT max(version) AS v FROM schema_migrations');
  return Number(rows[0]?.v ?? 0);
}

/**
 * Applies the pending migrations to the database at `url`, each in its own transaction
 * (PostgreSQL's DDL is transactional), recorded in schema_migrations as SQLite records them.
 * Several servers starting together migrate once: each holds the advisory lock while it reads
 * the version and applies what is missing, so the others find nothing left to do. A database
 * written by a newer binary is refused.
 */
export async function migratePostgres(url: string, migrations = loadPostgresMigrations()): Promise<MigrateResult> {
  const client = new pg.Client({ connectionString: url, application_name: 'promo migrate' });
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATE_LOCK})`);
    const applied = await applyPending(client, migrations, 'each in its own');
    return { applied, version: await versionOf(client) };
  } finally {
    // Ending the session releases the advisory lock too; said out loud for the reader.
    await client.query(`SELECT pg_advisory_unlock(${MIGRATE_LOCK})`).catch(() => undefined);
    await client.end();
  }
}

/**
 * Applies what the database lacks of `migrations` on `client`, recording each in
 * schema_migrations: `each in its own` transaction, or all `in the caller's` open one (promo
 * copy: the schema and the rows commit together). The caller holds the migration lock
 * (migrationLock); a database newer than `migrations` is refused.
 */
export async function applyPending(
  client: pg.ClientBase,
  migrations: readonly Migration[],
  transactions: 'each in its own' | "in the caller's",
): Promise<string[]> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version bigint PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`);
  const found = await versionOf(client);
  refuseNewer(found, migrations);
  const own = transactions === 'each in its own';
  const applied: string[] = [];
  for (const migration of migrations.filter((m) => m.version > found)) {
    if (own) await client.query('BEGIN');
    try {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
      if (own) await client.query('COMMIT');
    } catch (error) {
      if (own) await client.query('ROLLBACK');
      throw error;
    }
    applied.push(migration.name);
  }
  return applied;
}

/** The advisory lock migrations take, held until the caller's transaction ends (promo copy's). */
export const lockMigrationsInTransaction = (client: pg.ClientBase) =>
  client.query(`SELECT pg_advisory_xact_lock(${MIGRATE_LOCK})`);
