import { join } from 'node:path';
import { openSqlite } from '../../../src/db/sqlite/connect.js';

/**
 * Durable-commit figures the write benchmarks share: the disk's own rate of tiny
 * synchronous = FULL commits (what one fsync per request would cap a server at), and the
 * server's group-commit counters from /metrics.
 */
export function tinyCommitRate(dir: string, ms: number): number {
  const sqlite = openSqlite(join(dir, 'tiny-commits.db'));
  sqlite.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)');
  const insert = sqlite.prepare('INSERT INTO t (v) VALUES (?)');
  const once = sqlite.transaction(() => insert.run('x'));
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < ms) {
    once();
    n++;
  }
  sqlite.close();
  return Math.round(n / ((performance.now() - started) / 1000));
}

export interface CommitFigures {
  batches: number;
  transactions: number;
  commitSeconds: number;
  transactionSeconds: number;
}

export async function commitFigures(base: string): Promise<CommitFigures> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name: string) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.split(' ')[1] ?? 0,
    );
  return {
    batches: value('promo_commit_batches_total'),
    transactions: value('promo_commit_transactions_total'),
    commitSeconds: value('promo_commit_seconds_total'),
    transactionSeconds: value('promo_transaction_seconds_total'),
  };
}

/** Transactions per COMMIT between two readings. */
export const meanBatch = (before: CommitFigures, after: CommitFigures): number =>
  Number(((after.transactions - before.transactions) / Math.max(1, after.batches - before.batches)).toFixed(2));

/**
 * The one writer's time per transaction between two readings, in microseconds: held by the
 * transaction (statements and the JavaScript between them) and its share of COMMIT. Their sum
 * caps any write path at 1e6 / sum transactions a second, however many cores serve the rest.
 */
export function writerTime(before: CommitFigures, after: CommitFigures) {
  const transactions = Math.max(1, after.transactions - before.transactions);
  const perTransaction = (seconds: number) => Math.round((seconds * 1e6) / transactions);
  const held = perTransaction(after.transactionSeconds - before.transactionSeconds);
  const commit = perTransaction(after.commitSeconds - before.commitSeconds);
  return { held_us: held, commit_us: commit, ceiling_per_s: Math.round(1e6 / Math.max(1, held + commit)) };
}
