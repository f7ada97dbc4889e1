import type { Deps } from '../../../app/deps.js';
import type { Actor } from '../../../lib/actor.js';
import type { CampaignType } from '../../../lib/enums.js';
import { recordRollbackInSummary } from '../../customers/index.js';
import { emit } from '../../events/index.js';
import { creditGift, findRedemptionEntry, refundPoints } from '../../ledgers/index.js';
import { releaseRewardStock } from '../../rewards/index.js';
import { releaseVoucherRedemption } from '../../vouchers/index.js';
import type { Customer } from '../pipeline/redemption-customer.service.js';
import { presentRedemption, type RedemptionRow } from '../redemptions.presenter.js';
import type { Tx } from '../../../db/engine.js';

/**
 * Gives back what one child redemption took, inside the rollback's transaction, after its
 * guarded status change passed (so this runs once per redemption): one unit of the voucher's
 * redemption quantity, the gift credits or loyalty points through the ledgers (rows tied to
 * the redemption's own rows: points back into the buckets they came from), the reward's unit
 * (its `redeemed` count, and stock), and the customer's summary. What a CAMPAIGN reward gave (a voucher,
 * or a balance on another card) is the customer's and stays.
 */
type UndoDeps = Pick<Deps, 'seams'>;

export interface UndoContext {
  rollbackId: string;
  customer: Customer | null;
  actor: Actor;
  at: string;
}

interface RewardSnapshot {
  id: string;
  type?: string;
  assignment_id?: string;
  [key: string]: unknown;
}

async function refund(deps: UndoDeps, trx: Tx, child: RedemptionRow, ctx: UndoContext): Promise<void> {
  if (!child.voucher_id) return;
  const entry = await findRedemptionEntry(trx, child.voucher_id, child.id);
  // No row: the redemption moved no credits or points (a reward of 0 points, a card deleted since).
  if (!entry) return;
  const related = {
    order_id: child.order_id,
    redemption_id: child.id,
    rollback_id: ctx.rollbackId,
    related_transaction_id: entry.id,
  };
  const change = {
    voucherId: child.voucher_id,
    amount: -entry.delta,
    related,
    actor: ctx.actor,
    at: ctx.at,
    operationType: 'AUTOMATIC' as const,
  };
  if (entry.type === 'CREDITS_REDEMPTION') await creditGift(deps, trx, { ...change, type: 'CREDITS_REFUND' });
  else await refundPoints(deps, trx, { ...change, original: entry });
}

async function returnReward(trx: Tx, child: RedemptionRow, ctx: UndoContext): Promise<void> {
  if (child.reward_snapshot === null) return;
  const reward = JSON.parse(child.reward_snapshot) as RewardSnapshot;
  await releaseRewardStock(trx, reward.id);
  if (!ctx.customer) return;
  const voucher =
    child.voucher_snapshot === null ? null : (JSON.parse(child.voucher_snapshot) as { id: string; code: string });
  const data = {
    customer: ctx.customer,
    ...(voucher ? { voucher: { id: voucher.id, code: voucher.code, object: 'voucher' } } : {}),
    reward,
    ...(reward.assignment_id ? { reward_assignment: { id: reward.assignment_id, object: 'reward_assignment' } } : {}),
    source: 'redemption_rollback',
    balance: child.loyalty_points ?? 0,
  };
  const campaign = child.campaign_id ? { campaign: { id: child.campaign_id, type: 'LOYALTY_PROGRAM' as const } } : {};
  await emit(trx, {
    type: 'customer.reward_redemptions.rolledback',
    customer_id: ctx.customer.id,
    data,
    actor: ctx.actor,
    created_at: ctx.at,
    ...campaign,
  });
}

export async function undoChild(deps: UndoDeps, trx: Tx, child: RedemptionRow, ctx: UndoContext): Promise<void> {
  if (child.voucher_id) await releaseVoucherRedemption(trx, child.voucher_id, ctx.at);
  await refund(deps, trx, child, ctx);
  await returnReward(trx, child, ctx);
}

/** The campaign type a record's columns imply (the activity's campaign_type filter). */
const campaignTypeOf = (row: RedemptionRow): CampaignType =>
  row.promotion_tier_id
    ? 'PROMOTION'
    : row.gift_amount !== null
      ? 'GIFT_VOUCHERS'
      : row.loyalty_points !== null
        ? 'LOYALTY_PROGRAM'
        : 'DISCOUNT_COUPONS';

/** The rollback's count in the customer's summary and its event (succeeded, or failed). */
export async function announceRollback(
  trx: Tx,
  row: RedemptionRow,
  original: RedemptionRow | null,
  ctx: Omit<UndoContext, 'rollbackId'>,
): Promise<void> {
  if (!ctx.customer) return;
  const succeeded = row.result === 'SUCCESS';
  await recordRollbackInSummary(trx, {
    customer_id: ctx.customer.id,
    result: row.result,
    gift_amount: succeeded ? -(row.gift_amount ?? 0) : 0,
    loyalty_points: succeeded ? -(row.loyalty_points ?? 0) : 0,
    at: ctx.at,
  });
  const rollback = presentRedemption(row);
  await emit(trx, {
    type: succeeded ? 'customer.redemption.rollback.succeeded' : 'customer.redemption.rollback.failed',
    customer_id: ctx.customer.id,
    actor: ctx.actor,
    created_at: ctx.at,
    data: {
      customer: ctx.customer,
      redemption_rollback: rollback,
      ...(original ? { redemption: presentRedemption(original) } : {}),
      ...(rollback.voucher ? { voucher: rollback.voucher } : {}),
      ...(rollback.promotion_tier ? { promotion_tier: rollback.promotion_tier } : {}),
    },
    ...(row.campaign_id ? { campaign: { id: row.campaign_id, type: campaignTypeOf(row) } } : {}),
  });
}
