import { notFound } from '../../lib/errors.js';
import { findCampaignOrNone } from '../campaigns/index.js';
import type { Db } from './ledger-write.service.js';
import * as repo from './ledgers.repository.js';

/**
 * The card a member path names: `memberId` is its code; with a campaign (id or name), the
 * card must be of it, else 404 (the campaign's, when it does not exist).
 */
export async function requireLedgerCard(db: Db, code: string, campaignRef?: string): Promise<repo.CardFields> {
  const card = await repo.findLedgerCardByCode(db, code);
  if (campaignRef !== undefined) {
    const campaign = await findCampaignOrNone(db, campaignRef);
    if (!campaign) throw notFound('campaign', campaignRef);
    if (!card || card.campaign_id !== campaign.id) throw notFound('voucher', code);
  }
  if (!card) throw notFound('voucher', code);
  return card;
}
