import { AppError, notFound } from '../../lib/errors.js';
import { findLiveCampaign } from '../campaigns/campaigns.service.js';
import { addLoyaltyPoints, adjustGiftBalanceInSummary } from '../customers/customer-summary.service.js';
import type { Db } from './ledger-write.service.js';
import * as repo from './ledgers.repository.js';

/**
 * Gives a card (a loyalty card or gift card without a holder) to a customer, inside the
 * caller's transaction: holder_id is set by one guarded statement, and the card's balance
 * joins the customer's loyalty points (or gift summary), so a customer's loyalty points stay
 * the sum of their cards' balances. Members (POST /v1/loyalties/{id}/members) use it; nothing
 * else may set holder_id on a card with a balance. 400 invalid_voucher when it has a holder.
 */
export async function assignCardHolder(trx: Db, input: { voucherId: string; customerId: string; at: string }): Promise<repo.CardFields> {
  const card = await repo.setHolder(trx, input.voucherId, input.customerId, input.at);
  if (!card) {
    const existing = await repo.findCard(trx, input.voucherId);
    if (!existing) throw notFound('voucher', input.voucherId);
    throw new AppError('invalid_voucher', `Card ${existing.code} already has a holder`);
  }
  const at = input.at;
  if (card.type === 'GIFT_VOUCHER' && (card.gift_balance ?? 0) > 0) {
    await adjustGiftBalanceInSummary(trx, { customer_id: input.customerId, delta: card.gift_balance ?? 0, at });
  }
  if (card.type === 'LOYALTY_CARD' && (card.loyalty_balance ?? 0) > 0 && card.campaign_id !== null) {
    const campaign = await findLiveCampaign(trx, card.campaign_id);
    if (campaign) await addLoyaltyPoints(trx, { customer_id: input.customerId, campaign: { id: campaign.id, name: campaign.name }, points: card.loyalty_balance ?? 0, at });
  }
  return card;
}
