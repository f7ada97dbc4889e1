import type { Insertable, Selectable } from 'kysely';
import type { PublicationTable } from './publications.table.js';
import type { Db } from '../../db/engine.js';

/** Publication rows, and the voucher counters a publication changes. */
export type PublicationRow = Selectable<PublicationTable>;

export async function insertPublication(db: Db, row: Insertable<PublicationTable>): Promise<void> {
  await db.insertInto('publications').values(row).execute();
}

export const findPublicationById = (db: Db, id: string): Promise<PublicationRow | undefined> =>
  db.selectFrom('publications').selectAll().where('id', '=', id).executeTakeFirst();

/** The successful publication a source_id names (publications_source_id, unique). */
export const findPublicationBySourceId = (db: Db, sourceId: string): Promise<PublicationRow | undefined> =>
  db
    .selectFrom('publications')
    .selectAll()
    .where('source_id', '=', sourceId)
    .where('result', '=', 'SUCCESS')
    .executeTakeFirst();

/** The customer's first successful publication in a campaign (publications_customer_campaign). */
export const findCampaignPublication = (
  db: Db,
  customerId: string,
  campaignId: string,
): Promise<PublicationRow | undefined> =>
  db
    .selectFrom('publications')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('campaign_id', '=', campaignId)
    .where('result', '=', 'SUCCESS')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();

/** The campaign's oldest voucher without a holder (vouchers_free). */
export const findFreeVoucher = (db: Db, campaignId: string): Promise<{ id: string; code: string } | undefined> =>
  db
    .selectFrom('vouchers')
    .select(['id', 'code'])
    .where('campaign_id', '=', campaignId)
    .where('holder_id', 'is', null)
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();

/** A publication of the voucher: its publish.count, in one statement. */
export async function countPublication(db: Db, voucherId: string): Promise<void> {
  await db
    .updateTable('vouchers')
    .set((eb) => ({ publish_count: eb('publish_count', '+', 1) }))
    .where('id', '=', voucherId)
    .execute();
}

/** Clears a customer's tracking_id (their source_id then) on publications_customer; the number changed. */
export async function clearTrackingIds(db: Db, customerId: string): Promise<number> {
  const result = await db
    .updateTable('publications')
    .set({ tracking_id: null })
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
