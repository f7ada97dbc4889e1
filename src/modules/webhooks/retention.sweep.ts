import { setImmediate as yieldToRequests } from 'node:timers/promises';
import { webhookTimingFromEnv } from '../../app/config.js';
import type { Deps } from '../../app/deps.js';
import * as repo from './retention.repository.js';

/**
 * THE WEBHOOKS' RETENTION SWEEP (src/root/sweep-registry.ts): a delivered delivery goes once
 * it finished more than `deliveredMs` ago (PROMO_WEBHOOK_RETENTION_MS, 7 days), a failed one
 * after `failedMs` (PROMO_WEBHOOK_FAILED_RETENTION_MS, 30 days: time to look at it and replay
 * it), and an event goes once no delivery is kept for it and it is older than `deliveredMs`.
 * A delivery still PENDING, and so its event, is never deleted: it is owed.
 *
 * Batches of SWEEP_BATCH rows, each delete in a transaction of its own, requests let in
 * between; safe with several processes on one file (each delete is guarded by its conditions).
 */
export interface Retention {
  deliveredMs: number;
  failedMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_RETENTION: Retention = { deliveredMs: 7 * DAY_MS, failedMs: 30 * DAY_MS };
const SWEEP_BATCH = 500;

export function retentionFromEnv(): Retention {
  const timing = webhookTimingFromEnv();
  return {
    deliveredMs: timing.retentionMs ?? DEFAULT_RETENTION.deliveredMs,
    failedMs: timing.failedRetentionMs ?? DEFAULT_RETENTION.failedMs,
  };
}

type SweepDeps = Pick<Deps, 'db' | 'clock'>;
type Page = Array<{ seq: number; created_at: string }>;

/** A table the sweep walks: its next page after a seq, and the delete for a page's seq range. */
interface Table {
  read(afterSeq: number): Promise<Page>;
  remove(range: { from: number; to: number }): (trx: SweepDeps['db']) => Promise<number>;
}

/**
 * Walks a table in seq order from `after`, page by page, deleting in each page's seq range,
 * until a page reaches rows created at or after `youngest` (none of them can go yet) or the end.
 * Returns what went and where the walk's last page began (where a walk that resumes starts).
 */
async function walk(
  deps: SweepDeps,
  table: Table,
  from: number,
  youngest: string,
  signal?: AbortSignal,
): Promise<{ deleted: number; resume: number }> {
  let deleted = 0;
  for (let after = from; ; ) {
    const page = await table.read(after);
    if (page.length === 0) return { deleted, resume: after };
    const range = { from: page[0]!.seq, to: page.at(-1)!.seq };
    deleted += await deps.db.transaction().execute(table.remove(range));
    if (page.length < SWEEP_BATCH || page.at(-1)!.created_at >= youngest || signal?.aborted)
      return { deleted, resume: after };
    after = range.to;
    await yieldToRequests(); // requests waiting on the writer go between batches
  }
}

/** Where each table's resuming walk starts next round, per database handle (0 after a restart). */
const resumeAt = new WeakMap<SweepDeps['db'], { deliveries: number; events: number }>();

/**
 * One round: finished deliveries past their retention, then events left with none; how many
 * rows went. Each table is walked twice: from its oldest row up to the failed retention's
 * cutoff (nearly everything that old goes), and from where the last round stopped up to the
 * delivered retention's cutoff, so that the failed deliveries kept meanwhile (a receiver down
 * for a day: many) are read once by the second walk, not every round; the first walk deletes
 * them when their time comes.
 */
export async function sweepWebhookRetention(
  deps: SweepDeps,
  signal?: AbortSignal,
  retention: Retention = retentionFromEnv(),
): Promise<number> {
  const now = deps.clock.now().getTime();
  const before = {
    delivered: new Date(now - retention.deliveredMs).toISOString(),
    failed: new Date(now - retention.failedMs).toISOString(),
  };
  const resume = resumeAt.get(deps.db) ?? { deliveries: 0, events: 0 };
  const deliveries: Table = {
    read: (after) => repo.pageFrom(deps.db, 'webhook_deliveries', after, SWEEP_BATCH),
    remove: (range) => (trx) => repo.deleteFinishedDeliveries(trx, range, before),
  };
  const events: Table = {
    read: (after) => repo.pageFrom(deps.db, 'webhook_events', after, SWEEP_BATCH),
    remove: (range) => (trx) => repo.deleteUnreferencedEvents(trx, range, before.delivered),
  };
  let deleted = 0;
  for (const name of ['deliveries', 'events'] as const) {
    const table = name === 'deliveries' ? deliveries : events;
    deleted += (await walk(deps, table, 0, before.failed, signal)).deleted;
    if (signal?.aborted) break;
    const resumed = await walk(deps, table, resume[name], before.delivered, signal);
    deleted += resumed.deleted;
    resume[name] = resumed.resume;
  }
  resumeAt.set(deps.db, resume);
  return deleted;
}
