import { Counter, Gauge, type Registry } from 'prom-client';
import type { Deps } from '../app/deps.js';
import type { CommitStats, EngineStats, PoolStats, RetryStats } from '../db/engine.js';

/**
 * The database on /metrics, from the engine's figures (db/engine.ts EngineStats): its size on
 * disk by part (SQLite: the database file and its WAL), and the API connection's durable
 * commits (batches, the transactions they held, and the time spent).
 */
export function registerDatabaseMetrics(registry: Registry, deps: Pick<Deps, 'engine'>): void {
  new Gauge({
    name: 'promo_database_bytes',
    help: 'Size of the database file and of its write-ahead log',
    labelNames: ['file'],
    registers: [registry],
    collect() {
      for (const [file, bytes] of Object.entries(deps.engine.stats().storageBytes)) this.set({ file }, bytes);
    },
  });
  const commits = (name: string, help: string, value: (stats: CommitStats) => number) =>
    engineCounter(registry, deps, name, help, (stats) => value(stats.commits));
  commits(
    'promo_commit_batches_total',
    'Durable COMMITs of the API connection: each holds one batch of write transactions',
    (s) => s.batches,
  );
  commits(
    'promo_commit_transactions_total',
    'Write transactions those batches held: divided by the batches, the mean batch size',
    (s) => s.transactions,
  );
  commits(
    'promo_commit_seconds_total',
    'Time the API connection spent in COMMIT: writing the batch to the WAL, then waiting for the disk',
    (s) => s.commitSeconds,
  );
  commits(
    'promo_transaction_seconds_total',
    'Time write transactions held the API connection, COMMIT excepted: with promo_commit_seconds_total, how busy the one writer is',
    (s) => s.transactionSeconds,
  );
  const stats = deps.engine.stats();
  if (stats.pool) registerPoolMetrics(registry, deps);
  if (stats.retries) registerRetryMetrics(registry, deps);
  if (stats.writerThread) registerWriterThreadMetrics(registry, deps);
}

function registerWriterThreadMetrics(registry: Registry, deps: Pick<Deps, 'engine'>): void {
  new Gauge({
    name: 'promo_writer_thread_up',
    help: 'Whether the writer thread runs whole writes (redemptions, orders); 0 before the first and if it stopped',
    registers: [registry],
    collect() {
      this.set(deps.engine.stats().writerThread?.up ? 1 : 0);
    },
  });
  engineCounter(
    registry,
    deps,
    'promo_writer_thread_operations_total',
    'Whole writes (redemptions, orders) the writer thread answered',
    (stats) => stats.writerThread?.operations ?? 0,
  );
}

/** A counter that reads one of the engine's running totals at each scrape. */
function engineCounter(
  registry: Registry,
  deps: Pick<Deps, 'engine'>,
  name: string,
  help: string,
  value: (stats: EngineStats) => number,
): Counter {
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(value(deps.engine.stats()));
    },
  });
}

/** The connection pools (PostgreSQL): connections open and idle, and callers waiting for one. */
function registerPoolMetrics(registry: Registry, deps: Pick<Deps, 'engine'>): void {
  poolGauges(registry, 'promo_database_pool', 'for transactions', 'PROMO_DB_POOL', () => deps.engine.stats().pool);
  if (deps.engine.stats().readPool)
    poolGauges(
      registry,
      'promo_database_read_pool',
      'for statements outside a transaction (reads, rate-limit counts)',
      'PROMO_DB_READ_POOL',
      () => deps.engine.stats().readPool,
    );
}

function poolGauges(
  registry: Registry,
  prefix: string,
  what: string,
  setting: string,
  figures: () => PoolStats | undefined,
): void {
  const none: PoolStats = { total: 0, idle: 0, waiting: 0 };
  new Gauge({
    name: `${prefix}_connections`,
    help: `Connections of this process to the database ${what}, open and idle: open minus idle are in use; open reaches ${setting} at most`,
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { total, idle } = figures() ?? none;
      this.set({ state: 'open' }, total);
      this.set({ state: 'idle' }, idle);
    },
  });
  new Gauge({
    name: `${prefix}_waiting`,
    help: `Requests of this process waiting for a free database connection ${what}: above 0 for long, the pool is too small or the database slow`,
    registers: [registry],
    collect() {
      this.set((figures() ?? none).waiting);
    },
  });
}

/** Transactions re-run whole after losing a race (PostgreSQL: deadlock, serialization failure, a unique key taken). */
function registerRetryMetrics(registry: Registry, deps: Pick<Deps, 'engine'>): void {
  const retries = (name: string, help: string, value: (stats: RetryStats) => number) =>
    engineCounter(registry, deps, name, help, (stats) => value((stats as Required<EngineStats>).retries));
  retries(
    'promo_transaction_retries_total',
    'Transactions of this process run again after losing a race (deadlock, serialization failure, a unique key a concurrent one took)',
    (s) => s.retries,
  );
  retries(
    'promo_transaction_retries_exhausted_total',
    'Transactions that failed all 5 attempts: a race lost every time (answered database_busy), or a unique key already taken before the first (answered as on SQLite)',
    (s) => s.exhausted,
  );
}
