import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { getMember } from './members-list.service.js';

/** A member's loyalty card, as pending points need it. */
export interface MemberCard {
  id: string;
  code: string;
  campaign_id: string;
  holder_id: string | null;
}

/**
 * The loyalty card a memberId (its code) names, of the program `programRef` names when
 * given: 404 `voucher` when there is none (404 `campaign` for an unknown program).
 */
export async function requireMemberCard(db: Kysely<Database>, code: string, programRef?: string): Promise<MemberCard> {
  const voucher = await getMember({ db }, code, programRef);
  return {
    id: voucher.id,
    code: voucher.code,
    campaign_id: voucher.campaign_id as string,
    holder_id: voucher.holder_id ?? null,
  };
}
