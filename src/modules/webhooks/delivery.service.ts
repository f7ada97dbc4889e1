import { randomBytes } from 'node:crypto';
import type { Deps } from '../../app/deps.js';
import { postInOrder } from './delivery.client.js';
import { envelope } from './envelope.presenter.js';
import { DEFAULT_RETRY, nextAttemptAt, type RetryPolicy } from './retry-schedule.rules.js';
import * as fanout from './fanout.repository.js';
import * as repo from './queue.repository.js';

/**
 * Sending the outbox. A sender claims webhooks' queues (repo.claimQueues: one guarded UPDATE
 * with a lease), posts each claimed queue's due deliveries one after another in commit order,
 * stops a queue at its first failure (the events behind it wait: order is kept), then records
 * the outcomes and gives the queue back in one transaction. A sender that dies mid-way leaves
 * its deliveries PENDING and its lease to expire: they are sent again (at least once), never
 * lost. HTTP is never awaited inside a transaction.
 */
type SendDeps = Pick<Deps, 'db' | 'clock'>;

export interface SenderOptions {
  /** Each POST's whole time. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** How long a claim holds a queue (6 timeouts): a dead sender's queues wait this long at most. */
  leaseMs: number;
  /** Deliveries one claim of a queue sends at most before it gives the queue back. */
  batch: number;
  /** Queues (webhooks) a process sends to at once: the concurrency bound. */
  maxQueues: number;
  /** Posts a queue's due sendouts in order: postInOrder here, or on `promo serve`'s POSTs thread (post-thread.client.ts). */
  post?: typeof postInOrder;
}

export const DEFAULT_SENDER: SenderOptions = {
  timeoutMs: 10_000,
  retry: DEFAULT_RETRY,
  leaseMs: 60_000,
  batch: 200,
  maxQueues: 8,
};

/** Deliveries by outcome since this process started (/metrics). */
export const deliveryCounts = { delivered: 0, retried: 0, failed: 0 };

/** This process's lease owner name: another process's claims never match it. */
export const senderId = (): string => `snd_${randomBytes(8).toString('hex')}`;

/** Events one fan-out transaction makes deliveries for at most. */
const FANOUT_BATCH = 500;

class FanOutTaken extends Error {}

/**
 * Makes the deliveries of the events committed since the last fan-out (fanout.repository.ts),
 * a batch per transaction, before a claim looks at the queues. Another sender that moved the
 * fan-out's place meanwhile wins: this one's batch is rolled back and it stops.
 */
export async function fanOutPending(deps: SendDeps): Promise<void> {
  for (let batch = 0; batch < 10; batch++) {
    const to = await fanout.fanOutEnd(deps.db, FANOUT_BATCH);
    if (to === undefined) return;
    try {
      await deps.db.transaction().execute(async (trx) => {
        if (!(await fanout.fanOut(trx, to))) throw new FanOutTaken();
      });
    } catch (error) {
      if (error instanceof FanOutTaken) return;
      throw error;
    }
  }
}

/** A claimed queue, and how far the database's clock was ahead of this process's when it was claimed. */
export type Claimed = repo.ClaimedQueue & { clockAheadMs: number };

/**
 * Takes up to `max` due queues for `owner`; none when nothing is due (a read, not a write).
 * "Now" is the database's time (repo.databaseClockAhead), read once a claim.
 */
export async function claim(deps: SendDeps, owner: string, options: SenderOptions, max: number): Promise<Claimed[]> {
  if (max <= 0) return [];
  await fanOutPending(deps);
  const localMs = deps.clock.now().getTime();
  const clockAheadMs = await repo.databaseClockAhead(deps.db, localMs);
  const now = new Date(localMs + clockAheadMs);
  if (!(await repo.anyClaimable(deps.db, now.toISOString()))) return [];
  const until = new Date(now.getTime() + options.leaseMs).toISOString();
  const claimed = await deps.db
    .transaction()
    .execute((trx) => repo.claimQueues(trx, owner, now.toISOString(), until, max));
  return claimed.map((queue) => ({ ...queue, clockAheadMs }));
}

function outcomeOf(
  delivery: repo.OutgoingDelivery,
  result: { status: number | null; error: string | null },
  retry: RetryPolicy,
  nowMs: number,
): repo.Outcome {
  const at = new Date(nowMs).toISOString();
  const base = { seq: delivery.seq, last_status: result.status, last_error: result.error };
  if (result.error === null)
    return { ...base, status: 'DELIVERED', next_attempt_at: delivery.next_attempt_at, finished_at: at };
  const next = nextAttemptAt(Date.parse(delivery.event.created_at), nowMs, delivery.attempts + 1, retry);
  if (next === null) return { ...base, status: 'FAILED', next_attempt_at: delivery.next_attempt_at, finished_at: at };
  return { ...base, status: 'PENDING', next_attempt_at: new Date(next).toISOString(), finished_at: null };
}

/**
 * Sends one claimed queue's due deliveries in order, then records them and releases the queue.
 * True when it sent a whole batch: more may be waiting behind it.
 */
export async function drainQueue(
  deps: SendDeps,
  owner: string,
  webhook: Claimed,
  options: SenderOptions,
): Promise<boolean> {
  const nowMs = () => deps.clock.now().getTime() + webhook.clockAheadMs;
  const startMs = nowMs();
  const outcomes: repo.Outcome[] = [];
  try {
    const heads = await repo.queueHead(deps.db, webhook.id, options.batch);
    // Those due now, in order; the rest (a retry not yet due, and all behind it) waits for a later claim.
    const firstNotDue = heads.findIndex((d) => Date.parse(d.next_attempt_at) > startMs);
    const due = firstNotDue === -1 ? heads : heads.slice(0, firstNotDue);
    const results = await (options.post ?? postInOrder)({
      targetUrl: webhook.target_url,
      secret: webhook.secret,
      bodies: due.map((delivery) => envelope(delivery, delivery.event, webhook)),
      timeoutMs: options.timeoutMs,
      budgetMs: options.leaseMs,
    });
    const endMs = nowMs();
    for (const [i, result] of results.entries()) {
      const outcome = outcomeOf(due[i] as repo.OutgoingDelivery, result, options.retry, endMs);
      outcomes.push(outcome);
      deliveryCounts[
        outcome.status === 'DELIVERED' ? 'delivered' : outcome.status === 'FAILED' ? 'failed' : 'retried'
      ]++;
    }
  } finally {
    await deps.db.transaction().execute(async (trx) => {
      await repo.recordOutcomes(trx, outcomes);
      await repo.releaseQueue(trx, webhook.id, owner);
    });
  }
  return outcomes.length === options.batch && outcomes.every((o) => o.status !== 'PENDING');
}

/** One pass: claims every due queue (up to maxQueues) and drains them all; how many were claimed. */
export async function deliverOnce(
  deps: SendDeps,
  options: SenderOptions = DEFAULT_SENDER,
  owner = senderId(),
): Promise<number> {
  const claimed = await claim(deps, owner, options, options.maxQueues);
  await Promise.all(claimed.map((webhook) => drainQueue(deps, owner, webhook, options)));
  return claimed.length;
}
