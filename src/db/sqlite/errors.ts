import { registerErrorClassifier, type DatabaseErrorKind } from '../errors.js';

/** SQLite's extended result codes (better-sqlite3 puts them in `code`), by what they mean. */
const KINDS: Readonly<Record<string, DatabaseErrorKind>> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign_key',
  SQLITE_CONSTRAINT_CHECK: 'check',
  SQLITE_CONSTRAINT_NOTNULL: 'check',
  SQLITE_CONSTRAINT_TRIGGER: 'check',
  SQLITE_CONSTRAINT: 'check',
  SQLITE_BUSY: 'busy',
  // A DEFERRED transaction whose snapshot went stale: run it again (promo begins IMMEDIATE).
  SQLITE_BUSY_SNAPSHOT: 'retry',
};

/** What a better-sqlite3 error means; any other SQLITE_CONSTRAINT_* counts as a check. */
export function sqliteErrorKind(error: unknown): DatabaseErrorKind | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  return KINDS[code] ?? (code.startsWith('SQLITE_CONSTRAINT') ? 'check' : undefined);
}

registerErrorClassifier(sqliteErrorKind);
