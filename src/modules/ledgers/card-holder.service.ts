import type { Tx } from '../../db/engine.js';
import type { Actor } from '../../lib/actor.js';
import { AppError, notFound } from '../../lib/errors.js';
import { findLiveCampaign } from '../campaigns/index.js';
import { addLoyaltyPoints, adjustGiftBalanceInSummary } from '../customers/index.js';
import type { Db, LedgerDeps } from './ledger-write.service.js';
import * as repo from './ledgers.repository.js';
import { POINTS_CHANGED } from './points-changed.seam.js';

/**
 * Gives a card (a loyalty card or gift card without a holder) to a customer, inside the
 * caller's transaction: holder_id is set by one guarded statement, and the card's balance
 * joins the customer's loyalty points (or gift summary), so a customer's loyalty points stay
 * the sum of their cards' balances. A loyalty card then fires the points seam (no ledger row,
 * `type` null, delta 0), so the member's tier is right from the moment they hold the card,
 * whatever points it was created or imported with. Members (POST /v1/loyalties/{id}/members)
 * use it; nothing else may set holder_id on a card with a balance. 400 invalid_voucher when it
 * has a holder.
 */
export async function assignCardHolder(
  deps: LedgerDeps,
  trx: Tx,
  input: { voucherId: string; customerId: string; at: string; actor: Actor },
): Promise<repo.CardFields> {
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
  if (card.type !== 'LOYALTY_CARD') return card;
  const balance = card.loyalty_balance ?? 0;
  if (balance > 0 && card.campaign_id !== null) {
    const campaign = await findLiveCampaign(trx, card.campaign_id);
    if (campaign)
      await addLoyaltyPoints(trx, {
        customer_id: input.customerId,
        campaign: { id: campaign.id, name: campaign.name },
        points: balance,
        at,
      });
  }
  const change = {
    voucherId: card.id,
    campaignId: card.campaign_id,
    customerId: input.customerId,
    delta: 0,
    balance,
    type: null,
  };
  await deps.seams.fire(POINTS_CHANGED, trx, { ...change, at, actor: input.actor });
  return card;
}
