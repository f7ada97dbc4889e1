import assert from 'node:assert/strict';
import type BetterSqlite3 from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import type { CommitStats } from '../../src/db/engine.js';
import { loadMigrations, migrate } from '../../src/db/sqlite/migrate.js';
import { postgresFingerprint, postgresFingerprintWatch, postgresTableNames } from './postgres-fingerprint.js';
import { isPostgresBridge } from './sqlite.js';

/**
 * A migrated template database, made once per set of migrations (keyed by their hash) and
 * copied for every test: migrating once per test would cost more than most tests.
 */
const TEMPLATE_FORMAT = 'incremental-vacuum';

function templateFile(): string {
  const migrations = loadMigrations();
  // The file's own settings count too: bump TEMPLATE_FORMAT when openSqlite changes how a new file is made.
  const hash = createHash('sha256')
    .update(TEMPLATE_FORMAT + migrations.map((m) => m.name + m.sql).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const file = join(tmpdir(), `promo-template-${hash}.db`);
  if (existsSync(file)) return file;
  const building = `${file}.${process.pid}.tmp`;
  const sqlite = openSqlite(building);
  migrate(sqlite, migrations);
  sqlite.pragma('journal_mode = DELETE'); // one self-contained file to copy
  sqlite.close();
  renameSync(building, file); // atomic: concurrent test processes never copy half a file
  return file;
}

/** A temp directory removed when the process exits. */
export function tempDir(prefix = 'promo-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes files into a temp directory of their own: `file(name, content)` answers the path. */
export function tempFiles(prefix?: string): (name: string, content: string) => string {
  const dir = tempDir(prefix);
  return (name, content) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
}

/** A fresh, migrated database file of its own. */
export function freshDbFile(): string {
  const file = join(tempDir(), 'promo.db');
  copyFileSync(templateFile(), file);
  return file;
}

/** The tables of the database, by name: sqlite_master, or the public schema's on the PostgreSQL bridge. */
export function tableNames(sqlite: BetterSqlite3.Database): string[] {
  if (isPostgresBridge(sqlite)) return postgresTableNames(sqlite.rows);
  const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
  return (tables as Array<{ name: string }>).map((row) => row.name);
}

/** A hash of every row of every table: equal before and after means a request wrote nothing. */
export function dbFingerprint(sqlite: BetterSqlite3.Database): string {
  if (isPostgresBridge(sqlite)) return postgresFingerprint(sqlite.rows);
  const hash = createHash('sha256');
  for (const name of tableNames(sqlite)) {
    hash.update(name);
    for (const row of sqlite.prepare(`SELECT * FROM "${name}"`).iterate()) hash.update(JSON.stringify(row));
  }
  return hash.digest('hex');
}

/** Group commit's counters exactly, and time measured in COMMIT and in the transactions. */
export function assertCommitStats(stats: CommitStats, counts: Pick<CommitStats, 'batches' | 'transactions'>): void {
  const { commitSeconds, transactionSeconds, ...rest } = stats;
  assert.deepEqual(rest, counts);
  assert.ok(
    commitSeconds > 0 && transactionSeconds > 0,
    `time in COMMIT ${commitSeconds} s, in transactions ${transactionSeconds} s`,
  );
}

/**
 * dbFingerprint for many requests in a row: recomputed only when this connection's
 * total_changes() or data_version (another connection's commit: a job's worker) moved since
 * the last call. A rolled-back write moves total_changes too, so nothing is missed, and
 * hashing the whole file around every refused request is spared. On PostgreSQL:
 * postgresFingerprintWatch (postgres-fingerprint.ts).
 */
export function fingerprintWatch(sqlite: BetterSqlite3.Database): () => string {
  if (isPostgresBridge(sqlite)) return postgresFingerprintWatch(sqlite.rows);
  const version = sqlite
    .prepare("SELECT total_changes() || ':' || (SELECT data_version FROM pragma_data_version) AS v")
    .pluck();
  let seen = '';
  let print = '';
  return () => {
    const now = version.get() as string;
    if (now !== seen) [seen, print] = [now, dbFingerprint(sqlite)];
    return print;
  };
}
