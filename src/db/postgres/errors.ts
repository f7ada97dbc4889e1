import { registerErrorClassifier, type DatabaseErrorKind } from '../errors.js';

/**
 * PostgreSQL's SQLSTATEs (node-postgres puts them in `code`), by what they mean: the same
 * kinds as SQLite's codes (db/sqlite/errors.ts), so services and the error renderer answer
 * both engines alike. 22P02/22P05 are a stored JSON text or an address the `::json` casts of
 * the schema refuse (docs/postgres.md): SQLite refuses the same through a CHECK.
 */
const KINDS: Readonly<Record<string, DatabaseErrorKind>> = {
  '23505': 'unique',
  '23503': 'foreign_key',
  '23514': 'check',
  '23502': 'check',
  '22P02': 'check',
  '22P05': 'check',
  '40001': 'retry',
  '40P01': 'retry',
  '55P03': 'busy',
  '57014': 'busy',
};

/**
 * A named statement prepared before DDL changed its answer's columns (a migration while servers
 * run): 0A000, feature_not_supported, which is otherwise no race. The statement ran nothing; the
 * transaction runs again whole, the statement under a new name (db/postgres/named-statements.ts).
 */
export const isStalePlan = (error: unknown): boolean => {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === '0A000' && message === 'cached plan must not change result type';
};

/** What a node-postgres error means: its `code` is five characters and it names a severity. */
export function postgresErrorKind(error: unknown): DatabaseErrorKind | undefined {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  if (typeof code !== 'string' || code.length !== 5 || typeof severity !== 'string') return undefined;
  return isStalePlan(error) ? 'retry' : KINDS[code];
}

registerErrorClassifier(postgresErrorKind);
