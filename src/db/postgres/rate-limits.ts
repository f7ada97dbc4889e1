import type pg from 'pg';
import { RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { isDatabaseError } from '../errors.js';
import { namedStatements, statementName } from './named-statements.js';

/**
 * Where every server's budgets count (rate-limiter-flexible's layout: key, points, expire).
 * UNLOGGED: a count is worth less than a durable commit per request (an unlogged write's
 * commit waits for no WAL flush); a crash of PostgreSQL empties it, a standby has none, and
 * either only starts the minute's windows anew. Not a migration: it holds no promo data, and
 * the first server that counts a budget makes it (the schema parity tests compare migrated
 * databases, which never hold it; promo copy refuses a database holding it, as any table).
 */
export const RATE_LIMIT_TABLE = 'promo_rate_limits';

const CREATE = `CREATE UNLOGGED TABLE IF NOT EXISTS ${RATE_LIMIT_TABLE} (
  key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`;

/**
 * The pool as rate-limiter-flexible's store client, its statements named as promo's own are
 * (db/postgres/named-statements.ts: by their text's hash; a fixed few, prepared on each
 * connection's first run), or unnamed under PROMO_DB_NAMED_STATEMENTS=off: the library's own
 * names would be prepared whatever the switch says.
 */
function storeClient(pool: pg.Pool) {
  const named = namedStatements();
  return {
    query: ({ text, values }: { text: string; values?: unknown[] }) =>
      pool.query(named && values?.length ? { name: statementName(text), text, values } : { text, values }),
  };
}

/**
 * Budgets shared by every server on the database: `points` requests per `windowSeconds`, each
 * request one guarded upsert of its key's row. When PostgreSQL does not answer, `insurance`
 * (this process's own count) decides, so an outage never refuses or lets through everything.
 */
export function sharedRateLimiters(pool: pg.Pool) {
  let table: Promise<void> | undefined;
  const made = async (): Promise<void> => {
    try {
      await pool.query(CREATE);
    } catch (error) {
      // Two servers creating it at once: the loser's catalog insert collides (23505); it exists.
      if (!isDatabaseError(error, 'unique')) throw error;
    }
  };
  return async (
    points: number,
    windowSeconds: number,
    insurance: RateLimiterAbstract,
  ): Promise<RateLimiterAbstract> => {
    table ??= made().catch((error) => {
      table = undefined;
      throw error;
    });
    await table;
    return new RateLimiterPostgres({
      storeClient: storeClient(pool),
      storeType: 'pool',
      tableName: RATE_LIMIT_TABLE,
      tableCreated: true,
      keyPrefix: 'promo',
      points,
      duration: windowSeconds,
      insuranceLimiter: insurance,
    });
  };
}
