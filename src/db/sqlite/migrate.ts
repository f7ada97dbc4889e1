import type BetterSqlite3 from 'better-sqlite3';
import { migrationsFolder, migrationsIn, refuseNewer, type Migration, type MigrateResult } from '../migrations.js';
import { openSqlite } from './connect.js';

/** The SQLite migrations this binary ships: sql/sqlite/NNNN_<what>.sql, in order. */
export const loadMigrations = (dir = migrationsFolder('sqlite')): Migration[] => migrationsIn(dir);

/**
 * Applies pending migrations, each in its own IMMEDIATE transaction, recording it in
 * schema_migrations. Safe to run from several processes at once: the version check happens
 * inside the write lock. A database written by a newer binary is refused.
 */
export function migrate(sqlite: BetterSqlite3.Database, migrations = loadMigrations()): MigrateResult {
  sqlite.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
  const currentVersion = (): number =>
    (sqlite.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;

  refuseNewer(currentVersion(), migrations);

  const applied: string[] = [];
  const record = sqlite.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of migrations) {
    const apply = sqlite.transaction(() => {
      const isApplied = sqlite.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(migration.version);
      if (isApplied) return;
      sqlite.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
      applied.push(migration.name);
    });
    apply.immediate();
  }
  return { applied, version: currentVersion() };
}

/** `promo migrate`: opens the file, applies what is pending, closes it. */
export function migrateFile(file: string): MigrateResult {
  const sqlite = openSqlite(file);
  try {
    return migrate(sqlite);
  } finally {
    sqlite.close();
  }
}
