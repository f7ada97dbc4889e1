import type { Db } from '../../../db/engine.js';

/** An active loyalty card a customer holds in a live program. */
export interface HeldCard {
  id: string;
  code: string;
  campaign_id: string;
  holder_id: string;
}

/**
 * The cards a customer holds (read on vouchers_holder_created_at, sql/0010), each of a live
 * LOYALTY_PROGRAM, active ones only: a disabled card earns nothing. Read-only: balances move
 * through the ledgers only.
 */
export async function listHeldCards(db: Db, customerId: string): Promise<HeldCard[]> {
  const rows = await db
    .selectFrom('vouchers as v')
    .innerJoin('campaigns as c', 'c.id', 'v.campaign_id')
    .select(['v.id', 'v.code', 'v.campaign_id', 'v.holder_id'])
    .where('v.holder_id', '=', customerId)
    .where('v.type', '=', 'LOYALTY_CARD')
    .where('v.active', '=', 1)
    .where('c.campaign_type', '=', 'LOYALTY_PROGRAM')
    .where('c.deleted_at', 'is', null)
    .orderBy('v.seq')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    campaign_id: row.campaign_id as string,
    holder_id: row.holder_id as string,
  }));
}
