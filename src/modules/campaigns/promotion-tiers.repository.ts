import type { SelectQueryBuilder, Updateable } from 'kysely';
import type { Database } from '../../db/database.js';
import { newestFirst } from '../../db/newest-first.js';
import type { OrderBy } from '../../lib/pagination.js';
import type { CampaignRow, PromotionTierRow } from './campaigns.repository.js';
import type { PromotionTierTable } from './campaigns.table.js';
import type { Db } from '../../db/engine.js';

export type PromotionTierPatch = Updateable<PromotionTierTable>;

export interface TiersFilter {
  /** `is_available=true`: active now (flags and dates of the tier and its campaign) at this instant. */
  availableAt?: string;
}

/** Tiers of live campaigns, filtered: walked in the order's index, the rest checked per row. */
function tiersQuery(
  db: Db,
  filter: TiersFilter,
): SelectQueryBuilder<Database, 'promotion_tiers' | 'campaigns', object> {
  let query = db
    .selectFrom('promotion_tiers')
    .innerJoin('campaigns', 'campaigns.id', 'promotion_tiers.campaign_id')
    .where('campaigns.deleted_at', 'is', null);
  const now = filter.availableAt;
  if (now !== undefined) {
    query = query.where('promotion_tiers.active', '=', 1).where('campaigns.active', '=', 1);
    for (const table of ['promotion_tiers', 'campaigns'] as const) {
      query = query
        .where((eb) => eb.or([eb(`${table}.start_date`, 'is', null), eb(`${table}.start_date`, '<=', now)]))
        .where((eb) => eb.or([eb(`${table}.expiration_date`, 'is', null), eb(`${table}.expiration_date`, '>', now)]));
    }
  }
  return query;
}

export function listTiersPage(
  db: Db,
  filter: TiersFilter,
  page: { limit: number; offset: number; order: OrderBy<'created_at' | 'updated_at'> },
): Promise<PromotionTierRow[]> {
  return tiersQuery(db, filter)
    .selectAll('promotion_tiers')
    .orderBy(`promotion_tiers.${page.order.field}`, page.order.direction)
    .orderBy('promotion_tiers.seq', page.order.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** A candidate tier's key: its id and its place in a qualification's walk (newest first). */
export interface TierKey {
  id: string;
  created_at: string;
  seq: number;
}

/**
 * A batch of the tiers available now, newest first, created before `createdBefore` (the page
 * cursor) and strictly before `after` (where the walk stands): walked in promotion_tiers_active_created_at.
 */
export function listAvailableTierKeys(
  db: Db,
  walk: { now: string; createdBefore: string | null; after: { created_at: string; seq: number } | null; limit: number },
): Promise<TierKey[]> {
  const query = tiersQuery(db, { availableAt: walk.now }).select([
    'promotion_tiers.id',
    'promotion_tiers.created_at',
    'promotion_tiers.seq',
  ]);
  return newestFirst(query, 'promotion_tiers', walk).execute();
}

export async function countPromotionTiers(db: Db, filter: TiersFilter): Promise<number> {
  return (
    await tiersQuery(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
}

/** Tiers by id, in one read (those that exist). */
export const findPromotionTierRowsByIds = (db: Db, ids: string[]): Promise<PromotionTierRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db.selectFrom('promotion_tiers').selectAll().where('id', 'in', ids).execute();

/** Campaigns by id (a page of tiers' campaigns), live or not. */
export const listCampaignsByIds = (db: Db, ids: string[]): Promise<CampaignRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('campaigns').selectAll().where('id', 'in', ids).execute();

/** How many tiers the campaign holds, and its highest hierarchy (0 when none). */
export async function campaignTierStats(db: Db, campaignId: string): Promise<{ count: number; maxHierarchy: number }> {
  const row = await db
    .selectFrom('promotion_tiers')
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      eb.fn.coalesce(eb.fn.max<number>('hierarchy'), eb.lit(0)).as('maxHierarchy'),
    ])
    .where('campaign_id', '=', campaignId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), maxHierarchy: Number(row.maxHierarchy) };
}

export const updatePromotionTierRow = async (db: Db, id: string, patch: PromotionTierPatch): Promise<void> => {
  await db.updateTable('promotion_tiers').set(patch).where('id', '=', id).execute();
};

export const deletePromotionTierRow = async (db: Db, id: string): Promise<void> => {
  await db.deleteFrom('promotion_tiers').where('id', '=', id).execute();
};
