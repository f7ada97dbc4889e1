import type { Tx } from '../../db/engine.js';
import { AppError } from '../../lib/errors.js';
import { refreshNextExpirations } from './points-expiry.repository.js';
import {
  applyEffects,
  checkAmount,
  findCardFor,
  writeEntry,
  type Db,
  type LedgerChangeInput,
  type LedgerDeps,
  type LedgerResult,
} from './ledger-write.service.js';
import type * as repo from './ledgers.repository.js';
import * as bucketsRepo from './points-buckets.repository.js';

/**
 * REFUNDS: what a redemption took comes back tied to the rows it took it with (a rollback,
 * issue 13). The debit's row is found by the redemption it names; the refund row names it in
 * `related_transaction_id`.
 *
 * Points go back into the very buckets the debit drew from (points_draws), so they keep their
 * expiry. A bucket that expired since cannot take them: those points come back and expire at
 * once, as they would have had they never been spent (a POINTS_EXPIRATION row of them, counted
 * in the bucket's expired_points). The card's redeemed points thus drop by exactly what the
 * redemption took, and its balance grows by what is still valid.
 */

export interface PointsRefundInput extends LedgerChangeInput {
  /** The debit being undone: its draws say which buckets get the points back. */
  original: repo.LedgerEntryRow;
}

export interface PointsRefund {
  refund: LedgerResult;
  /** The expiration row of the points whose bucket had expired meanwhile, when there were some. */
  expired: LedgerResult | null;
}

export async function refundPoints(deps: LedgerDeps, trx: Tx, input: PointsRefundInput): Promise<PointsRefund> {
  checkAmount(input.amount);
  const card = await findCardFor(trx, input.voucherId, 'POINTS_REFUND', input.card);
  const draws = await bucketsRepo.listDrawsOf(trx, input.original.id);
  if (draws.reduce((sum, d) => sum + d.points, 0) !== input.amount) {
    throw new AppError('internal_error', `The draws of ${input.original.id} do not sum to ${input.amount} points`);
  }
  const related = { ...input.related, related_transaction_id: input.original.id };
  const refund = await writeEntry(trx, card, 'POINTS_REFUND', { ...input, related });
  const lapsed: bucketsRepo.DrawRow[] = [];
  for (const draw of draws) {
    if (await bucketsRepo.giveBackToBucket(trx, draw.bucket_id, draw.points, input.at)) continue;
    await bucketsRepo.addExpiredToBucket(trx, draw.bucket_id, draw.points, input.at);
    lapsed.push(draw);
  }
  await applyEffects(deps, trx, refund, input.actor);
  const lapsedPoints = lapsed.reduce((sum, d) => sum + d.points, 0);
  const expired =
    lapsedPoints > 0
      ? await expireAtOnce(deps, trx, refund, { ...input, amount: lapsedPoints, related }, lapsed)
      : null;
  const [next] = await refreshNextExpirations(trx, [card.id]);
  const latest = (expired ?? refund).card;
  const withNext = next
    ? {
        ...latest,
        loyalty_next_expiration_date: next.loyalty_next_expiration_date,
        loyalty_next_expiration_points: next.loyalty_next_expiration_points,
      }
    : latest;
  return expired
    ? { refund, expired: { ...expired, card: withNext } }
    : { refund: { ...refund, card: withNext }, expired: null };
}

/** The refunded points of buckets expired since (`draws`): one POINTS_EXPIRATION row, drawn from those buckets. */
async function expireAtOnce(
  deps: LedgerDeps,
  trx: Tx,
  refund: LedgerResult,
  input: LedgerChangeInput,
  draws: bucketsRepo.DrawRow[],
): Promise<LedgerResult> {
  const result = await writeEntry(trx, refund.card, 'POINTS_EXPIRATION', { ...input, operationType: 'AUTOMATIC' });
  await bucketsRepo.insertDraws(
    trx,
    draws.map((d) => ({ entry_id: result.entry.id, bucket_id: d.bucket_id, points: d.points })),
  );
  await applyEffects(deps, trx, result, input.actor);
  return result;
}
