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

/**
 * Walks a table in seq order, page by page, deleting with `remove` in each page's seq range,
 * until a page reaches rows created at or after `youngest` (none of them can go yet).
 */
async function walk(
  deps: SweepDeps,
  read: (afterSeq: number) => Promise<Page>,
  remove: (range: { from: number; to: number }) => (trx: SweepDeps['db']) => Promise<number>,
  youngest: string,
  signal?: AbortSignal,
): Promise<number> {
  let deleted = 0;
  for (let after = 0; ; ) {
    const page = await read(after);
    if (page.length === 0) return deleted;
    const range = { from: page[0]!.seq, to: page.at(-1)!.seq };
    deleted += await deps.db.transaction().execute(remove(range));
    if (page.length < SWEEP_BATCH || page.at(-1)!.created_at >= youngest || signal?.aborted) return deleted;
    after = range.to;
    await yieldToRequests(); // requests waiting on the writer go between batches
  }
}

/** One round: finished deliveries past their retention, then events left with none; how many rows went. */
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
  const youngest = before.delivered > before.failed ? before.delivered : before.failed;
  const deliveries = await walk(
    deps,
    (after) => repo.deliveriesFrom(deps.db, after, SWEEP_BATCH),
    (range) => (trx) => repo.deleteFinishedDeliveries(trx, range, before),
    youngest,
    signal,
  );
  if (signal?.aborted) return deliveries;
  const events = await walk(
    deps,
    (after) => repo.eventsFrom(deps.db, after, SWEEP_BATCH),
    (range) => (trx) => repo.deleteUnreferencedEvents(trx, range, before.delivered),
    before.delivered,
    signal,
  );
  return deliveries + events;
}
