import { Kysely, PostgresDialect, type KyselyConfig, type Transaction, type TransactionBuilder } from 'kysely';
import pg from 'pg';
import { AppError } from '../../lib/errors.js';
import type { Database } from '../database.js';
import { pendingFirstWrite, runFirstWrite } from './first-write.js';
import { type ColumnNullability, sqliteNullOrder } from './null-order.js';
import { namedStatements, namingPool } from './named-statements.js';
import { withoutPlanHints } from './plan-hints.js';
import { withRetries } from './retries.js';

/** Connections per process for transactions (PROMO_DB_POOL): API requests and commands share them. */
const DEFAULT_POOL_SIZE = 10;
/** The API's connections for statements outside a transaction (PROMO_DB_READ_POOL): reads, the rate limits' counts. */
const DEFAULT_READ_POOL_SIZE = 5;
/** A row lock waited for longer than this fails the statement (55P03: busy), as SQLite's busy timeout (5 s) does. */
const LOCK_TIMEOUT_MS = 5000;
const STATEMENT_TIMEOUT_MS = 30_000;

const INT8 = 20;
const NUMERIC = 1700;

/**
 * int8 and numeric (count(*), sum(bigint)) as numbers, as better-sqlite3 answers them:
 * promo's integers are minor units, points and counts, far below 2^53. One beyond it is
 * refused rather than silently rounded.
 */
function exactNumber(text: string): number {
  const value = Number(text);
  if (Number.isInteger(value) && !Number.isSafeInteger(value))
    throw new Error(`PostgreSQL answered ${text}, beyond the integers promo handles exactly`);
  return value;
}

/** The type parsers every promo connection to PostgreSQL uses (the pool's, promo copy's). */
export const promoTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 || oid === NUMERIC
      ? exactNumber
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  poolSize?: number;
  /** The read pool's size (openReadPool). */
  readPoolSize?: number;
  /** Named in pg_stat_activity. */
  applicationName?: string;
}

/**
 * A pool on `url`: READ COMMITTED (PostgreSQL's default, asked for anyway), lock and statement
 * timeouts set per session at connect, so no transaction waits without bound.
 */
export function openPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? (Number(process.env.PROMO_DB_POOL) || DEFAULT_POOL_SIZE),
    application_name: options.applicationName ?? 'promo',
    options: `-c default_transaction_isolation=read\\ committed -c lock_timeout=${LOCK_TIMEOUT_MS} -c statement_timeout=${STATEMENT_TIMEOUT_MS}`,
    types: promoTypes,
  });
  // An idle connection the server dropped is only a reason to open another, never to crash.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * The API's second pool, for statements outside a transaction (reads, the rate limits' counts):
 * a read never queues behind transactions that hold every connection of the first while they
 * wait on a hot row's lock (docs/postgres.md "Two pools").
 */
export const openReadPool = (url: string, options: PostgresOptions = {}): pg.Pool =>
  openPool(url, {
    poolSize: options.readPoolSize ?? (Number(process.env.PROMO_DB_READ_POOL) || DEFAULT_READ_POOL_SIZE),
    applicationName: `${options.applicationName ?? 'promo'} reads`,
  });

/**
 * Text must compare and fold as SQLite does (byte order; lower() folding ASCII only): every
 * keyset cursor on ids and codes and every case-insensitive filter rely on it. A database made
 * with another locale is refused, with the statement that makes a right one.
 */
export async function checkCollation(pool: Pick<pg.ClientBase, 'query'>): Promise<void> {
  const { rows } = await pool.query<{ datname: string; datcollate: string; datctype: string; provider: string }>(
    `SELECT datname, datcollate, datctype, datlocprovider AS provider
       FROM pg_database WHERE datname = current_database()`,
  );
  const row = rows[0];
  const isC = (value: string | undefined) => value === 'C' || value === 'POSIX';
  // An ICU default collation ('i') ignores datcollate for ordering.
  if (row && row.provider === 'c' && isC(row.datcollate) && isC(row.datctype)) return;
  throw new AppError(
    'database_collation',
    `The PostgreSQL database ${row?.datname} has collation ${row?.datcollate} and ctype ${row?.datctype} (provider ${row?.provider === 'i' ? 'ICU' : 'libc'}); promo needs C for both (text in byte order, as SQLite): CREATE DATABASE ${row?.datname} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
  );
}

/** What the engine does once a transaction committed (drop the kept answers it announced changed). */
export type AfterCommit = (trx: Transaction<Database>) => void;

/**
 * Kysely whose every transaction runs the request's first write right after BEGIN
 * (db/postgres/first-write.ts), is re-run whole when it loses a race (db/postgres/retries.ts),
 * and is handed to `afterCommit` once committed: the services' `db.transaction().execute(...)`
 * stay as they are.
 */
class PostgresKysely extends Kysely<Database> {
  constructor(
    config: KyselyConfig,
    private readonly afterCommit: AfterCommit,
    /** Kysely over the pool transactions take their connection from, when it is not this one's. */
    private readonly transactions?: Kysely<Database>,
  ) {
    super(config);
  }

  override transaction(): TransactionBuilder<Database> {
    return retriedWhole(this.transactions ? this.transactions.transaction() : super.transaction(), this.afterCommit);
  }

  override async destroy(): Promise<void> {
    await this.transactions?.destroy();
    await super.destroy();
  }
}

/**
 * `builder`, whose execute runs the first write, re-runs lost races and hands the committed
 * transaction to `afterCommit`; so is the builder its isolation level gives.
 */
function retriedWhole(builder: TransactionBuilder<Database>, afterCommit: AfterCommit): TransactionBuilder<Database> {
  const execute = builder.execute.bind(builder);
  const setIsolationLevel = builder.setIsolationLevel.bind(builder);
  builder.execute = <T>(callback: (trx: Transaction<Database>) => Promise<T>): Promise<T> => {
    const first = pendingFirstWrite();
    return withRetries(async () => {
      let ran: Transaction<Database> | undefined;
      const value = await execute(async (trx) => {
        ran = trx;
        if (first) await runFirstWrite(trx, first);
        return callback(trx);
      });
      if (ran) afterCommit(ran);
      return value;
    });
  };
  builder.setIsolationLevel = (level) => retriedWhole(setIsolationLevel(level), afterCommit);
  return builder;
}

/**
 * Kysely over `pool`; its ORDER BYs sort NULL as SQLite does, knowing which of `columns` are
 * NOT NULL; its statements named (namedStatements). With `readPool`, statements outside a
 * transaction run there and transactions on `pool`. `log` sees every statement (a test counting
 * what a service runs).
 */
export function kyselyOver(
  pool: pg.Pool,
  columns: ColumnNullability,
  options: { afterCommit?: AfterCommit; log?: KyselyConfig['log']; readPool?: pg.Pool } = {},
): Kysely<Database> {
  const over = (on: pg.Pool): KyselyConfig => ({
    dialect: new PostgresDialect({ pool: namedStatements() ? namingPool(on) : on }),
    plugins: [withoutPlanHints(), sqliteNullOrder(columns)],
    log: options.log,
  });
  const { readPool } = options;
  return new PostgresKysely(
    over(readPool ?? pool),
    options.afterCommit ?? (() => undefined),
    readPool ? new Kysely<Database>(over(pool)) : undefined,
  );
}
