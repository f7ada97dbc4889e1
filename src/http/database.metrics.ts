import { Counter, Gauge, type Registry } from 'prom-client';
import type { Deps } from '../app/deps.js';
import type { CommitStats } from '../db/engine.js';

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
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(value(deps.engine.stats().commits));
      },
    });
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
}
