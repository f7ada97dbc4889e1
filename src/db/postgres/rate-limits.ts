import type pg from 'pg';
import { RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { isDatabaseError } from '../errors.js';

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
 * The pool as rate-limiter-flexible's store client, its statements unnamed: the library names
 * them (prepared once per connection), which a pooler in transaction mode (pgbouncer before
 * 1.21) cannot follow from one transaction's connection to the next.
 */
const unnamed = (pool: pg.Pool) => ({
  query: (query: { text: string; values?: unknown[] }) => pool.query({ text: query.text, values: query.values }),
});

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
      storeClient: unnamed(pool),
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
