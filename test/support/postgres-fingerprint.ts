import type { PostgresRows } from './postgres-rows.js';

/**
 * Fingerprints of a PostgreSQL test database through the rows bridge (postgres-rows.ts): what
 * dbFingerprint and fingerprintWatch (db.ts) answer on the PostgreSQL pass.
 */

/** The public schema's tables, by name. */
export const postgresTableNames = (rows: PostgresRows): string[] =>
  rows
    .query(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
    )
    .rows.map((row) => String(row.name));

/** One table's rows hashed by the server in a fixed order (an empty table: the empty text). */
const tableHash = (name: string): string =>
  `coalesce((SELECT md5(string_agg(t::text, E'\\n' ORDER BY t::text)) FROM "${name}" t), '')`;

const statements = new WeakMap<PostgresRows, string>();

/** Every table's rows hashed, in one statement (one round trip, not one per table). */
export function postgresFingerprint(rows: PostgresRows): string {
  let statement = statements.get(rows);
  if (!statement) {
    const perTable = postgresTableNames(rows).map((name) => `'${name}:' || ${tableHash(name)}`);
    statement = `SELECT md5(${perTable.join(" || ',' || ")}) AS h`;
    statements.set(rows, statement);
  }
  return String(rows.query(statement).rows[0]?.h);
}

/**
 * The fingerprint for many requests in a row, each part recomputed only when it may have moved:
 *
 * - the cluster's snapshot first: unchanged (the same newest completed transaction, the same
 *   ones in progress), no transaction that wrote anything has ended since the last call (most
 *   calls around refused requests on a quiet cluster);
 * - else each table's version, PostgreSQL's counterpart of total_changes(): its row count and
 *   the newest xmin among its rows (an insert or an update writes a row version whose xmin is a
 *   new transaction id, above every one before; a delete lowers the count);
 * - then the hash of only the tables whose version moved (a version may also move without a
 *   change, a commit that rewrote a row as it was: the hash decides).
 *
 * Its value equals itself exactly when every table's rows did; it is not dbFingerprint's.
 */
export function postgresFingerprintWatch(rows: PostgresRows): () => string {
  const tables = postgresTableNames(rows);
  const versions = `SELECT ${tables
    .map((name, i) => `(SELECT count(*) || '.' || coalesce(max(xmin::text::bigint), 0) FROM "${name}") AS v${i}`)
    .join(', ')}`;
  const known = tables.map(() => ({ version: '', hash: '' }));
  let snapshot = '';
  return () => {
    const now = String(rows.query('SELECT pg_current_snapshot()::text AS s').rows[0]?.s);
    if (now !== snapshot) {
      snapshot = now;
      const row = rows.query(versions).rows[0] ?? {};
      const stale = tables.flatMap((_, i) => (known[i]?.version === String(row[`v${i}`]) ? [] : [i]));
      if (stale.length > 0) {
        const hashes = rows.query(`SELECT ${stale.map((i) => `${tableHash(tables[i] as string)} AS h${i}`).join(', ')}`)
          .rows[0];
        for (const i of stale) known[i] = { version: String(row[`v${i}`]), hash: String(hashes?.[`h${i}`]) };
      }
    }
    return known.map((part) => part.hash).join(',');
  };
}
