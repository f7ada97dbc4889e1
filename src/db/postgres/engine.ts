import type pg from 'pg';
import { AppError } from '../../lib/errors.js';
import { type BulkStatement, type DatabaseEngine, noCommits, type PoolStats, type StorageUpkeep } from '../engine.js';
import { POSTGRES_INSTEAD } from '../location.js';
import { announcedBy, registerCacheVersions } from '../versioned-cache.js';
import { type CacheListener, cacheListener, DEFAULT_CACHE_TTL_MS } from './cache-listener.js';
import { checkCollation, kyselyOver, openPool, openReadPool, type PostgresOptions } from './connect.js';
import { postgresBulkStatement } from './bulk.js';
import { withFirstWrite } from './first-write.js';
import { type ColumnNullability, readColumnNullability } from './null-order.js';
import { checkPool } from './health.js';
import { sharedRateLimiters } from './rate-limits.js';
import { retryStats } from './retries.js';
import { inSavepoint } from './savepoint.js';
import './errors.js';

const figuresOf = (pool: pg.Pool): PoolStats => ({
  total: pool.totalCount,
  idle: pool.idleCount,
  waiting: pool.waitingCount,
});

/** The PostgreSQL engine: the port (db/engine.ts) over a pg pool, and the pool for its figures. */
export interface PostgresEngine extends DatabaseEngine {
  /** The pool transactions take their connections from. */
  readonly pool: pg.Pool;
  /** The API's pool for statements outside a transaction ("Two pools" in docs/postgres.md); absent on a job thread's engine. */
  readonly readPool?: pg.Pool;
  /** The schema's columns, for the order compiler (null-order.ts); a job thread's engine is made over the same. */
  readonly columns: ColumnNullability;
}

const refused = (command: string) => (): never => {
  throw new AppError(
    'file_database_only',
    `promo ${command} works on a SQLite database file; on PostgreSQL ${POSTGRES_INSTEAD.vacuum}`,
  );
};

/**
 * Storage upkeep on PostgreSQL: the server keeps its own files (autovacuum), so what promo does
 * to a SQLite file is refused with what to use instead (the vacuum command refuses first).
 * Promo holds no free pages of its own there: the space reads as none to release, so a
 * permanent deletion's release after its transaction does nothing, and the old row versions'
 * bytes stay in the table files until VACUUM FULL rewrites them (plain VACUUM only marks the
 * space free; docs/operations.md).
 */
const storage: StorageUpkeep = {
  space: () => ({ pageSize: 0, pageCount: 0, freePages: 0, autoVacuum: 'NONE' }),
  releaseFreePages: refused('vacuum'),
  rewriteWhole: refused('vacuum --full'),
  emptyLog: async () => undefined,
  erasingFreedSpace: (fn) => fn(),
};

/** What the API's engine has beside its pool: the cache listener, and a pool for statements outside a transaction. */
export interface ApiSide {
  listener: CacheListener;
  readPool: pg.Pool;
}

/**
 * The port over `pool`. A statement's bulk form is built once per SQL; the savepoint's name is
 * the SQLite engine's. With `api` (the API's engine), the process's caches follow other
 * servers' changes, and statements outside a transaction (reads, the rate limits' counts) run
 * on a pool of their own, so they never wait behind transactions (docs/postgres.md "Two pools");
 * a job thread's engine keeps no cache and runs transactions.
 */
export function postgresEngineOver(pool: pg.Pool, columns: ColumnNullability, api?: ApiSide): PostgresEngine {
  const listener = api?.listener;
  const readPool = api?.readPool;
  const db = listener
    ? kyselyOver(pool, columns, { afterCommit: (trx) => listener.changed(announcedBy(trx)), readPool })
    : kyselyOver(pool, columns);
  if (listener) registerCacheVersions(db, listener);
  const statementPool = readPool ?? pool;
  const bulk = new Map<string, BulkStatement>();
  return {
    db,
    pool,
    readPool,
    columns,
    rowLocks: true,
    inSavepoint: (trx, fn) => inSavepoint(trx, 'promo_item', fn),
    prepareBulk(query) {
      let statement = bulk.get(query.sql);
      if (!statement) bulk.set(query.sql, (statement = postgresBulkStatement(query)));
      return statement;
    },
    withFirstWrite,
    shrinkCache: () => () => undefined,
    storage,
    // The server groups commits itself and keeps no statement cache of ours: nothing to count
    // yet; the figures read zero, and no file of ours holds the data. The pool and the re-run
    // transactions are ours.
    stats: () => ({
      storageBytes: {},
      commits: noCommits(),
      queries: { statements: 0, compiles: 0 },
      pool: figuresOf(pool),
      ...(readPool ? { readPool: figuresOf(readPool) } : {}),
      retries: { ...retryStats },
    }),
    checkHealth: () => checkPool(statementPool),
    sharedRateLimiter: sharedRateLimiters(statementPool),
    async close() {
      await listener?.close();
      await db.destroy();
      // Kysely ends a pool only once it ran a statement: a command refused before its first
      // one kept the collation check's connection, and lived on until it idled out (10 s).
      for (const open of [pool, readPool]) if (open && !open.ending && !open.ended) await open.end();
    },
  };
}

/**
 * Opens the PostgreSQL database at `url` as the engine; refuses a database whose collation is
 * not C. Its job runner's side: db/postgres/job-host.ts withJobHost.
 */
export async function openPostgresEngine(url: string, options: PostgresOptions = {}): Promise<PostgresEngine> {
  const pool = openPool(url, options);
  let columns: ColumnNullability;
  try {
    await checkCollation(pool);
    columns = await readColumnNullability(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  // LISTEN needs a session of its own: behind a pooler in transaction mode, PROMO_DB_LISTEN_URL
  // names the server itself (docs/operations.md).
  const listener = cacheListener(
    process.env.PROMO_DB_LISTEN_URL || url,
    Number(process.env.PROMO_CACHE_TTL_MS) || DEFAULT_CACHE_TTL_MS,
  );
  return postgresEngineOver(pool, columns, { listener, readPool: openReadPool(url, options) });
}
