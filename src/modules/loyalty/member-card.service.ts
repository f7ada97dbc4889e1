import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { notFound } from '../../lib/errors.js';
import { getVoucher } from '../vouchers/vouchers.service.js';

/** A member's loyalty card, as earning and pending points need it. */
export interface MemberCard {
  id: string;
  code: string;
  campaign_id: string;
  holder_id: string | null;
}

/**
 * The loyalty card a memberId (its code) names: 404 `voucher` when there is none, or when
 * `campaignId` is given and the card is of another program.
 */
export async function findMemberCard(db: Kysely<Database>, code: string, campaignId?: string): Promise<MemberCard> {
  const voucher = await getVoucher({ db }, code);
  if (voucher.type !== 'LOYALTY_CARD' || voucher.campaign_id === null || (campaignId !== undefined && voucher.campaign_id !== campaignId)) {
    throw notFound('voucher', code);
  }
  return { id: voucher.id, code: voucher.code, campaign_id: voucher.campaign_id, holder_id: voucher.holder_id };
}
