import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { AppError } from '../../lib/errors.js';
import { openSqlite } from './connect.js';

const SQL_DIR = fileURLToPath(new URL('../../../sql/', import.meta.url));

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migrations this binary ships: sql/NNNN_<what>.sql, in order. */
export function loadMigrations(dir = SQL_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(`${dir}${file}`, 'utf8'),
    }));
}

export interface MigrateResult {
  applied: string[];
  version: number;
}

/**
 * Applies pending migrations, each in its own IMMEDIATE transaction, recording it in
 * schema_migrations. Safe to run from several processes at once: the version check happens
 * inside the write lock. A database written by a newer binary is refused.
 */
export function migrate(sqlite: BetterSqlite3.Database, migrations = loadMigrations()): MigrateResult {
  sqlite.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
  const latestKnown = migrations.at(-1)?.version ?? 0;
  const currentVersion = (): number =>
    (sqlite.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;

  const found = currentVersion();
  if (found > latestKnown) {
    throw new AppError(
      'schema_too_new',
      `The database is at schema version ${found}, but this promo knows only up to ${latestKnown}. Upgrade promo to open it.`,
    );
  }

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
