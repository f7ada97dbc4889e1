import type { Kysely } from 'kysely';
import type { Deps } from '../../app/deps.js';
import type { Database } from '../../db/database.js';
import { emit } from '../events/events.service.js';
import { debitPoints } from '../ledgers/index.js';
import { findProgramReward } from '../rewards/assignments.service.js';
import { claimRewardStock } from '../rewards/rewards.service.js';
import { failure } from './redeemable-check.js';
import type { AppliedRedeemable, Customer } from './redemption-plan.js';
import type { RowContext } from './redemption-rows.js';
import { Refusal } from './redemption-refusal.js';

/**
 * A loyalty card spending points on a reward (`reward: {id, points}`), inside the request's
 * transaction: the reward must be assigned to the card's program (missing_reward otherwise);
 * the points (those asked, else the assignment's price) leave the card through the points
 * ledger (loyalty_card_points_exceeded when the balance cannot pay); a MATERIAL reward takes
 * one unit of stock (reward_out_of_stock when none is left). The reward redemption's events
 * follow.
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

export async function spendLoyalty(deps: Pick<Deps, 'seams' | 'clock'>, trx: Kysely<Database>, applied: AppliedRedeemable, input: SpendInput): Promise<LoyaltySpend> {
  const { loaded } = applied;
  const card = loaded.voucher!;
  const asked = loaded.body.reward;
  const found = asked?.id && card.campaign_id ? await findProgramReward(trx, card.campaign_id, asked.id) : undefined;
  if (!found) throw new Refusal(loaded, failure('missing_reward'));
  const { reward, assignment } = found;
  const points = asked?.points ?? assignment.parameters?.loyalty.points ?? 0;
  const { ctx } = input;
  const related = { order_id: input.order_id, redemption_id: input.redemption_id, reward_id: reward.id };
  if (points > 0) {
    await debitPoints(deps, trx, {
      voucherId: card.id, amount: points, type: 'POINTS_REDEMPTION', related, details: { reward: { id: reward.id, name: reward.name } }, actor: ctx.actor, at: ctx.at,
    });
  }
  if (reward.type === 'MATERIAL') await claimRewardStock(deps, trx, reward.id);
  const result = {
    ...(input.customer ? { customer: input.customer } : {}),
    assignment_id: assignment.id, id: reward.id, name: reward.name, object: 'reward', created_at: reward.created_at, updated_at: reward.updated_at,
    parameters: reward.parameters, metadata: reward.metadata, type: reward.type,
  };
  if (input.customer) {
    const data = { customer: input.customer, voucher: { id: card.id, code: card.code, object: 'voucher' }, reward: result, reward_assignment: assignment, source: 'redemption', balance: points };
    for (const type of ['customer.reward_redemptions.created', 'customer.reward_redemptions.completed'] as const) {
      await emit(trx, { type, customer_id: input.customer.id, data, actor: ctx.actor, created_at: ctx.at, ...(card.campaign_id ? { campaign: { id: card.campaign_id, type: 'LOYALTY_PROGRAM' as const } } : {}) });
    }
  }
  return { points, reward: result };
}
