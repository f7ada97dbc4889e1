import BetterSqlite3 from 'better-sqlite3';
import { isDatabaseError } from '../errors.js';
import { openSqlite } from './connect.js';

/**
 * Backups of a database file (`promo backup`, `promo restore`): SQLite's online backup API and
 * pragmas, which Kysely cannot express. None of it takes user input but file names, which
 * never reach SQL text. Only a file engine has these; a server engine refers to its own tools.
 */

/** Every remaining page in the next step: the copy is one read transaction, one snapshot. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the live database into `target` through SQLite's backup API. better-sqlite3 first
 * steps zero pages (it only sizes the copy); the next step then copies all pages inside one
 * read transaction, so the copy is one consistent snapshot even while other processes write
 * (in WAL mode a reader never holds writers off). Steps of a few pages would restart from
 * the beginning after every write of another connection, and never end under load.
 */
export async function copyLive(dbFile: string, target: string): Promise<number> {
  const sqlite = openSqlite(dbFile);
  try {
    const { totalPages } = await sqlite.backup(target, { progress: () => ALL_PAGES });
    return totalPages;
  } finally {
    sqlite.close();
  }
}

export interface CopyCheck {
  integrity: string;
  version: number;
}

/**
 * Opens a copy on its own, checks every page and index (`integrity_check`), reads its schema
 * version, and with `settle` makes it one self-contained file (rollback journal instead of WAL)
 * that can be moved and copied like any other.
 */
export function checkCopy(file: string, options: { settle: boolean }): CopyCheck {
  const copy = new BetterSqlite3(file, { fileMustExist: true, readonly: !options.settle });
  try {
    const rows = copy.pragma('integrity_check') as Array<{ integrity_check: string }>;
    const hasMigrations = copy
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      .get();
    const version = hasMigrations
      ? ((copy.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0)
      : -1;
    if (options.settle) copy.pragma('journal_mode = DELETE');
    return { integrity: rows.map((row) => row.integrity_check).join('; '), version };
  } finally {
    copy.close();
  }
}

/**
 * True when another connection has the file open. Leaving WAL mode needs the only connection
 * to the file, so trying it without waiting tells: busy means someone else is there. When no
 * one is, the file is left in rollback-journal mode with its WAL folded in, ready to replace.
 */
export function isInUse(file: string): boolean {
  // No busy timeout, from the open on: in use is answered at once, never waited out.
  const probe = new BetterSqlite3(file, { fileMustExist: true, timeout: 0 });
  try {
    return probe.pragma('journal_mode = DELETE', { simple: true }) !== 'delete';
  } catch (error) {
    if (isDatabaseError(error, 'busy')) return true;
    throw error;
  } finally {
    probe.close();
  }
}

/** A key as a restore compares them: only columns every schema version has. */
export interface StoredKey {
  app_id: string;
  kind: string;
  name: string;
  revoked_at: string | null;
}

/**
 * Every key of a promo database file, of any schema version (a backup made by an older
 * promo is restored before it is migrated), read without writing to it.
 */
export function readKeys(file: string): StoredKey[] {
  const sqlite = new BetterSqlite3(file, { fileMustExist: true, readonly: true });
  try {
    return sqlite
      .prepare('SELECT app_id, kind, name, revoked_at FROM api_keys ORDER BY created_at, app_id')
      .all() as StoredKey[];
  } finally {
    sqlite.close();
  }
}

/** Revokes keys in a file no process has open yet (a restore's incoming copy), at the given times. */
export function revokeKeys(file: string, revocations: Array<{ app_id: string; revoked_at: string }>): void {
  const sqlite = new BetterSqlite3(file, { fileMustExist: true });
  try {
    const revoke = sqlite.prepare('UPDATE api_keys SET revoked_at = ? WHERE app_id = ? AND revoked_at IS NULL');
    sqlite.transaction(() => {
      for (const key of revocations) revoke.run(key.revoked_at, key.app_id);
    })();
  } finally {
    sqlite.close();
  }
}
