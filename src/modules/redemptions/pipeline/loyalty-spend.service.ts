import type { Deps } from '../../../app/deps.js';
import { emit } from '../../events/index.js';
import { debitPoints, type RelatedIds } from '../../ledgers/index.js';
import { type RewardView, claimRewardStock } from '../../rewards/index.js';
import type { VoucherRow } from '../../vouchers/index.js';
import { failure, pointsCost } from './redeemable-check.rules.js';
import { coinRatio, pointsFor } from './redeemable-effect.rules.js';
import { giveCampaignReward } from './reward-campaign.service.js';
import type { AppliedRedeemable, Customer } from './redemption-plan.service.js';
import type { RowContext } from './redemption-rows.rules.js';
import { Refusal } from './redemption-refusal.rules.js';
import type { Tx } from '../../../db/engine.js';

/**
 * A loyalty card spending points on a reward (`reward: {id, points}`), inside the request's
 * transaction: the reward is assigned to the card's program (the load stage found it); the
 * points (a COIN reward's: what its credits paid, at its ratio; the others': those asked, else
 * the assignment's price) leave the card through the points ledger
 * (loyalty_card_points_exceeded when the balance cannot pay); the reward takes one unit
 * (reward_out_of_stock when its stock is spent); a CAMPAIGN reward gives a voucher or a
 * balance (reward-campaign.service.ts). The reward redemption's events follow.
 */
export interface LoyaltySpend {
  points: number;
  reward: Record<string, unknown>;
}

interface SpendInput {
  order_id: string | null;
  redemption_id: string;
  customer: Customer | null;
  ctx: RowContext;
}

/** The points a reward costs: a COIN reward's what its credits used, at its ratio; the others' their price. */
export function pointsOf(applied: AppliedRedeemable): number {
  const ratio = coinRatio(applied.loaded);
  if (!ratio) return pointsCost(applied.loaded);
  return Math.min(pointsFor(applied.effect?.credits_used ?? 0, ratio), applied.loaded.voucher!.loyalty_balance ?? 0);
}

/**
 * What the reward gives: every type takes one unit (the reward's `redeemed` count, guarded by
 * its stock when it has one); a CAMPAIGN reward also gives its campaign's voucher or balance.
 */
async function give(
  deps: Pick<Deps, 'seams' | 'clock'>,
  trx: Tx,
  reward: RewardView,
  input: SpendInput,
  related: RelatedIds,
): Promise<Record<string, unknown>> {
  await claimRewardStock(deps, trx, reward.id);
  const parameters = reward.parameters;
  if (reward.type !== 'CAMPAIGN' || !('campaign' in parameters) || !input.customer) return {};
  const given = {
    campaignId: parameters.campaign.id,
    balance: parameters.campaign.balance ?? 0,
    customerId: input.customer.id,
    related,
    actor: input.ctx.actor,
    at: input.ctx.at,
  };
  return { voucher: await giveCampaignReward(deps, trx, given) };
}

export async function spendLoyalty(
  deps: Pick<Deps, 'seams' | 'clock'>,
  trx: Tx,
  applied: AppliedRedeemable,
  input: SpendInput,
): Promise<LoyaltySpend> {
  const { loaded } = applied;
  const card = loaded.voucher!;
  if (!loaded.reward) throw new Refusal(loaded, failure('missing_reward'));
  const { reward, assignment } = loaded.reward;
  const points = pointsOf(applied);
  const { ctx } = input;
  const related = { order_id: input.order_id, redemption_id: input.redemption_id, reward_id: reward.id };
  if (points > 0) {
    await debitPoints(deps, trx, {
      voucherId: card.id,
      amount: points,
      type: 'POINTS_REDEMPTION',
      related,
      details: { reward: { id: reward.id, name: reward.name } },
      actor: ctx.actor,
      at: ctx.at,
    });
  }
  const extra = await give(deps, trx, reward, input, related);
  const result = {
    ...(input.customer ? { customer: input.customer } : {}),
    assignment_id: assignment.id,
    ...extra,
    id: reward.id,
    name: reward.name,
    object: 'reward',
    created_at: reward.created_at,
    updated_at: reward.updated_at,
    parameters: reward.parameters,
    // Unset metadata (null) is left out, as the reference's recorded reward redemptions show it.
    ...(reward.metadata === null ? {} : { metadata: reward.metadata }),
    type: reward.type,
  };
  await announceReward(trx, { card, assignment, result, points, input });
  return { points, reward: result };
}

async function announceReward(
  trx: Tx,
  args: { card: VoucherRow; assignment: unknown; result: Record<string, unknown>; points: number; input: SpendInput },
): Promise<void> {
  const { card, input } = args;
  if (!input.customer) return;
  const data = {
    customer: input.customer,
    voucher: { id: card.id, code: card.code, object: 'voucher' },
    reward: args.result,
    reward_assignment: args.assignment,
    source: 'redemption',
    balance: args.points,
  };
  const campaign = card.campaign_id ? { campaign: { id: card.campaign_id, type: 'LOYALTY_PROGRAM' as const } } : {};
  for (const type of ['customer.reward_redemptions.created', 'customer.reward_redemptions.completed'] as const) {
    await emit(trx, {
      type,
      customer_id: input.customer.id,
      data,
      actor: input.ctx.actor,
      created_at: input.ctx.at,
      ...campaign,
    });
  }
}
