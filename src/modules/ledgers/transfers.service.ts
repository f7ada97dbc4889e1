import type { Tx } from '../../db/engine.js';
import { lockRows } from '../../db/locks.js';
import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, invalidPayload } from '../../lib/errors.js';
import { type VoucherView, getVoucher } from '../vouchers/index.js';
import type { Db } from './ledger-write.service.js';
import type { CardFields } from './ledgers.repository.js';
import * as repo from './ledgers.repository.js';
import type { TransferItem } from './ledgers.schemas.js';
import { requireLedgerCard } from './member-card.service.js';
import { creditPoints, debitPoints } from './points-ledger.service.js';

type TransferDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

/** The card as the other side's row names it (`details.destination_voucher` / `source_voucher`). */
const simpleCard = (card: CardFields) => ({
  id: card.id,
  code: card.code,
  type: card.type,
  campaign_id: card.campaign_id,
  holder_id: card.holder_id,
  object: 'voucher',
});

/** A card that takes part in a transfer: a loyalty card given to a customer (400 invalid_voucher otherwise). */
function checkHeld(card: CardFields): void {
  if (card.type !== 'LOYALTY_CARD')
    throw new AppError('invalid_voucher', `${card.code} is a ${card.type}: points move only between loyalty cards`);
  if (card.holder_id === null)
    throw new AppError(
      'invalid_voucher',
      `Loyalty card ${card.code} has no holder: points move only between cards given to customers`,
    );
}

/** One source card's points to the target: POINTS_TRANSFER_OUT there, POINTS_TRANSFER_IN here, each naming the other. */
async function transferOne(
  deps: TransferDeps,
  trx: Tx,
  target: CardFields,
  item: TransferItem,
  ctx: { source: string | null; actor: Actor; at: string },
) {
  const source = await requireLedgerCard(trx, item.code);
  if (source.id === target.id) throw invalidPayload(`${item.code}: a card cannot transfer points to itself`);
  checkHeld(source);
  const common = { amount: item.points, reason: item.reason, source: ctx.source, actor: ctx.actor, at: ctx.at };
  const out = await debitPoints(deps, trx, {
    ...common,
    voucherId: source.id,
    type: 'POINTS_TRANSFER_OUT',
    sourceId: item.source_id,
    details: { destination_voucher: simpleCard(target) },
  });
  // A source_id seen before on the source card: that transfer was made already.
  if (out.replayed) return;
  const related = { related_transaction_id: out.entry.id };
  const into = await creditPoints(deps, trx, {
    ...common,
    voucherId: target.id,
    type: 'POINTS_TRANSFER_IN',
    related,
    details: { source_voucher: simpleCard(source) },
  });
  await repo.linkTransaction(trx, out.entry.id, into.entry.id);
}

/**
 * Locks the target and every source card in id order before any is debited or credited
 * (db/locks.ts): two transfers between the same cards in opposite directions then wait for
 * each other instead of each holding one card and waiting for the other. A deadlock left (a
 * card locked elsewhere out of order) is re-run whole. A no-op on SQLite.
 */
async function lockCards(trx: Tx, target: CardFields, items: TransferItem[]): Promise<void> {
  const ids = [target.id];
  for (const item of items) {
    const source = await repo.findLedgerCardByCode(trx, item.code);
    if (source) ids.push(source.id);
  }
  await lockRows(trx, 'vouchers', ids);
}

/**
 * transfer-points (POST /v1/loyalties/{campaignId}/members/{memberId}/transfers; the SDK's
 * `loyalties.transferPoints`): each source card (of any program) gives its points to the
 * path's card, in ONE write transaction: all or nothing. Both must be loyalty cards with a
 * holder; a source short of points is 400 loyalty_card_points_exceeded. The points land in the
 * target's buckets under its own program's expiration rules. Answers the target card.
 */
export async function transferPoints(
  deps: TransferDeps,
  card: { code: string; campaign: string },
  items: TransferItem[],
  ctx: { source: string | null; actor: Actor },
): Promise<VoucherView> {
  const at = isoNow(deps.clock);
  const code = await deps.db.transaction().execute(async (trx) => {
    const target = await requireLedgerCard(trx, card.code, card.campaign);
    checkHeld(target);
    await lockCards(trx, target, items);
    for (const item of items) await transferOne(deps, trx, target, item, { ...ctx, at });
    return target.code;
  });
  return getVoucher(deps, code);
}
