import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { isoDay } from '../../lib/dates.js';
import { randomBase62 } from '../../lib/ids.js';
import { expireClaimed } from './points-expiry.service.js';
import * as expiry from './points-expiry.repository.js';

/**
 * Buckets per transaction: a batch costs a handful of statements plus one per card (its
 * guarded balance shift) and two per holder, and holds the writer for tens of ms. 500 made no
 * faster sweep than 200 (the commit grows with the pages a batch dirties).
 */
const BATCH = 200;

/**
 * The points-expiry sweep: every ACTIVE bucket whose last day is before today (the Deps'
 * clock, UTC) expires, a batch per IMMEDIATE transaction, with its POINTS_EXPIRATION row and
 * `customer.voucher.loyalty_card.points_expired` event. A batch is claimed by one guarded
 * UPDATE, so with two processes sweeping one file each bucket expires once. Returns how many
 * buckets it expired (or retired). Once `signal` is aborted (the runner stopping) it ends
 * after the batch in progress; the next run carries on.
 */
export async function expireDueBuckets(
  deps: Pick<Deps, 'db' | 'clock' | 'seams'>,
  signal?: AbortSignal,
  batch = BATCH,
): Promise<number> {
  const today = isoDay(deps.clock.now());
  const actor: Actor = { channel: 'INTERNAL', request_id: `w-${randomBase62(18)}` };
  let expired = 0;
  for (;;) {
    const at = isoNow(deps.clock);
    const claimed = await deps.db.transaction().execute(async (trx) => {
      const buckets = await expiry.claimDueBuckets(trx, today, at, batch);
      await expireClaimed(deps, trx, buckets, { actor, at });
      return buckets.length;
    });
    expired += claimed;
    if (claimed < batch || signal?.aborted) return expired;
    await yieldToRequests(); // requests waiting on the writer go between batches
  }
}
