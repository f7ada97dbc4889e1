import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { isoDay } from '../../lib/dates.js';
import { randomBase62 } from '../../lib/ids.js';
import * as repo from './ledgers.repository.js';
import { expireBucket } from './points-ledger.service.js';

/** Buckets per transaction: each costs about ten statements; a batch holds the writer for tens of ms. */
const BATCH = 200;

/**
 * The points-expiry sweep: every ACTIVE bucket whose last day is before today (the Deps'
 * clock, UTC) expires, a batch per IMMEDIATE transaction, with its POINTS_EXPIRATION row and
 * `customer.voucher.loyalty_card.points_expired` event. Each bucket is claimed by a guarded
 * UPDATE, so with two processes sweeping one file it expires once. Returns how many buckets
 * it expired (or retired).
 */
export async function expireDueBuckets(deps: Pick<Deps, 'db' | 'clock' | 'seams'>, batch = BATCH): Promise<number> {
  const today = isoDay(deps.clock.now());
  const actor: Actor = { channel: 'INTERNAL', request_id: `w-${randomBase62(18)}` };
  let expired = 0;
  for (;;) {
    const at = isoNow(deps.clock);
    const { due, done } = await deps.db.transaction().execute(async (trx) => {
      const buckets = await repo.listDueBuckets(trx, today, batch);
      let claimed = 0;
      for (const bucket of buckets) if (await expireBucket(deps, trx, { bucketId: bucket.id, actor, at })) claimed += 1;
      return { due: buckets.length, done: claimed };
    });
    expired += done;
    if (due < batch) return expired;
    await yieldToRequests(); // requests waiting on the writer go between batches
  }
}
