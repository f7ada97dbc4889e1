import type { Deps } from '../../../app/deps.js';
import type { Actor } from '../../../lib/actor.js';
import { AppError } from '../../../lib/errors.js';
import { findLiveCampaign } from '../../campaigns/index.js';
import { assignCardHolder, creditGift, creditPoints, type RelatedIds } from '../../ledgers/index.js';
import { addVouchersInTransaction, findHeldVoucher, findVoucherRow, type VoucherRow } from '../../vouchers/index.js';
import type { Tx } from '../../../db/engine.js';

/**
 * A CAMPAIGN reward (parameters.campaign {id, balance}): a loyalty program's or gift campaign's
 * `balance` goes onto the card of that campaign the customer holds; without one (and for a
 * discount campaign always) a new voucher of the campaign is issued to the customer, with the
 * balance on it. Answered as the reward's `voucher`.
 */
export interface CampaignRewardInput {
  campaignId: string;
  balance: number;
  customerId: string;
  related: RelatedIds;
  actor: Actor;
  at: string;
}

async function issue(deps: Pick<Deps, 'seams'>, trx: Tx, input: CampaignRewardInput): Promise<VoucherRow> {
  const campaign = await findLiveCampaign(trx, input.campaignId);
  if (!campaign) throw new AppError('missing_reward', `The reward's campaign ${input.campaignId} no longer exists`);
  const outcome = await addVouchersInTransaction(trx, campaign, {
    count: 1,
    body: {},
    requestId: input.actor.request_id,
    now: input.at,
  });
  const voucher = 'code' in outcome ? await findVoucherRow(trx, outcome.code) : undefined;
  if (!voucher) throw new AppError('internal_error', `The reward's voucher of ${campaign.id} was not issued`);
  await assignCardHolder(deps, trx, {
    voucherId: voucher.id,
    customerId: input.customerId,
    at: input.at,
    actor: input.actor,
  });
  return voucher;
}

export async function giveCampaignReward(
  deps: Pick<Deps, 'seams'>,
  trx: Tx,
  input: CampaignRewardInput,
): Promise<Record<string, unknown>> {
  const held = await findHeldVoucher(trx, input.campaignId, input.customerId);
  const card = held && held.type !== 'DISCOUNT_VOUCHER' ? held : await issue(deps, trx, input);
  const change = {
    voucherId: card.id,
    amount: input.balance,
    reason: 'Loyalty reward',
    related: input.related,
    actor: input.actor,
    at: input.at,
  };
  if (input.balance > 0 && card.type === 'LOYALTY_CARD') await creditPoints(deps, trx, change);
  if (input.balance > 0 && card.type === 'GIFT_VOUCHER') await creditGift(deps, trx, change);
  return {
    id: card.id,
    code: card.code,
    campaign: card.campaign_name,
    campaign_id: card.campaign_id,
    object: 'voucher',
  };
}
