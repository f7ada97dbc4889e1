import type { Insertable, Selectable, Updateable } from 'kysely';
import type { OrderBy } from '../../lib/pagination.js';
import type { CampaignTable, CampaignType, GenerationStatus, PromotionTierTable } from './campaigns.table.js';
import type { Db } from '../../db/engine.js';

export type CampaignRow = Selectable<CampaignTable>;
export type CampaignInsert = Insertable<CampaignTable>;
export type CampaignPatch = Updateable<CampaignTable>;
export type PromotionTierRow = Selectable<PromotionTierTable>;
export type TierInsert = Insertable<PromotionTierTable>;

export const insertCampaign = async (db: Db, row: CampaignInsert): Promise<void> => {
  await db.insertInto('campaigns').values(row).execute();
};

export const findLiveCampaignById = (db: Db, id: string): Promise<CampaignRow | undefined> =>
  db.selectFrom('campaigns').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();

export const findLiveCampaignByName = (db: Db, name: string): Promise<CampaignRow | undefined> =>
  db.selectFrom('campaigns').selectAll().where('name', '=', name).where('deleted_at', 'is', null).executeTakeFirst();

export const findCampaignRow = (db: Db, id: string): Promise<CampaignRow | undefined> =>
  db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirst();

export interface CampaignFilter {
  campaignType?: CampaignType;
}

export function listCampaigns(
  db: Db,
  filter: CampaignFilter,
  page: { limit: number; offset: number; order: OrderBy<'created_at' | 'updated_at'> },
): Promise<CampaignRow[]> {
  let query = db.selectFrom('campaigns').selectAll().where('deleted_at', 'is', null);
  if (filter.campaignType) query = query.where('campaign_type', '=', filter.campaignType);
  return query
    .orderBy(page.order.field, page.order.direction)
    .orderBy('seq', page.order.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countCampaigns(db: Db, filter: CampaignFilter): Promise<number> {
  let query = db
    .selectFrom('campaigns')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('deleted_at', 'is', null);
  if (filter.campaignType) query = query.where('campaign_type', '=', filter.campaignType);
  return (await query.executeTakeFirstOrThrow()).n;
}

export async function sumLiveVouchersCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('campaigns')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('vouchers_count'), eb.lit(0)).as('n'))
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const updateCampaignRow = async (db: Db, id: string, patch: CampaignPatch): Promise<void> => {
  await db.updateTable('campaigns').set(patch).where('id', '=', id).execute();
};

/** Adds (or, negative, removes) vouchers from the campaign's count in one statement. */
export const addVouchersCount = async (db: Db, id: string, delta: number): Promise<void> => {
  if (delta === 0) return;
  await db
    .updateTable('campaigns')
    .set((eb) => ({ vouchers_count: eb('vouchers_count', '+', delta) }))
    .where('id', '=', id)
    .execute();
};

/** The generation's status; `now` null leaves updated_at alone (the generation a creation starts is no update). */
export const setGenerationStatus = async (
  db: Db,
  id: string,
  status: GenerationStatus,
  now: string | null,
): Promise<void> => {
  await db
    .updateTable('campaigns')
    .set({ vouchers_generation_status: status, ...(now === null ? {} : { updated_at: now }) })
    .where('id', '=', id)
    .execute();
};

/** Hides the campaign at once and frees its name; returns false if it was already gone. */
export async function markCampaignDeleted(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('campaigns')
    .set({ deleted_at: now, updated_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * Removes a deleted campaign's row; its tiers and stacks go with it (ON DELETE CASCADE). The
 * stacks go first: PostgreSQL runs each cascade as a statement of its own and checks
 * promotion_stack_tiers' key on the tiers (no cascade: a tier in a stack cannot be deleted) when
 * the tiers' cascade ends, which may come before the stacks', where SQLite checks once the whole
 * statement is done. Inside the caller's transaction (the deletion job's), the two are one change.
 */
export const deleteCampaignRow = async (db: Db, id: string): Promise<void> => {
  await db.deleteFrom('promotion_stacks').where('campaign_id', '=', id).execute();
  await db.deleteFrom('campaigns').where('id', '=', id).execute();
};

export const insertPromotionTierRows = async (db: Db, rows: TierInsert[]): Promise<void> => {
  if (rows.length > 0) await db.insertInto('promotion_tiers').values(rows).execute();
};

export const listPromotionTierRows = (db: Db, campaignIds: string[]): Promise<PromotionTierRow[]> =>
  campaignIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('promotion_tiers')
        .selectAll()
        .where('campaign_id', 'in', campaignIds)
        .orderBy('campaign_id')
        .orderBy('hierarchy')
        .orderBy('seq')
        .execute();

export const findPromotionTierRow = (db: Db, id: string): Promise<PromotionTierRow | undefined> =>
  db.selectFrom('promotion_tiers').selectAll().where('id', '=', id).executeTakeFirst();
