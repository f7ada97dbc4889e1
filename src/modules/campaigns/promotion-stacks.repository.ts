import type { Insertable, Selectable, Updateable } from 'kysely';
import { newestFirst, type WalkPosition } from '../../db/newest-first.js';
import { notIndexed } from '../../db/sqlite/plan-hints.js';
import type { OrderBy } from '../../lib/pagination.js';
import type { PromotionStackTable } from './campaigns.table.js';
import type { Db } from '../../db/engine.js';

export type StackRow = Selectable<PromotionStackTable>;
export type StackInsert = Insertable<PromotionStackTable>;
export type StackPatch = Updateable<PromotionStackTable>;

export const findStack = (db: Db, id: string): Promise<StackRow | undefined> =>
  db.selectFrom('promotion_stacks').selectAll().where('id', '=', id).executeTakeFirst();

export const insertStack = async (db: Db, row: StackInsert): Promise<void> => {
  await db.insertInto('promotion_stacks').values(row).execute();
};

export const updateStack = async (db: Db, id: string, patch: StackPatch): Promise<void> => {
  await db.updateTable('promotion_stacks').set(patch).where('id', '=', id).execute();
};

export const deleteStack = async (db: Db, id: string): Promise<void> => {
  await db.deleteFrom('promotion_stacks').where('id', '=', id).execute();
};

/** A stack's tiers become these, in this order. */
export async function replaceStackTiers(db: Db, stackId: string, tierIds: string[]): Promise<void> {
  await db.deleteFrom('promotion_stack_tiers').where('stack_id', '=', stackId).execute();
  await db
    .insertInto('promotion_stack_tiers')
    .values(tierIds.map((tier_id, position) => ({ stack_id: stackId, position, tier_id })))
    .execute();
}

/** The tier ids of these stacks, each stack's in its order. */
export async function listStackTierIds(db: Db, stackIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(stackIds.map((id) => [id, []]));
  if (stackIds.length === 0) return out;
  const rows = await db
    .selectFrom('promotion_stack_tiers')
    .selectAll()
    .where('stack_id', 'in', stackIds)
    .orderBy('stack_id')
    .orderBy('position')
    .execute();
  for (const row of rows) out.get(row.stack_id)?.push(row.tier_id);
  return out;
}

/** A stack that holds this tier, if any. */
export const findStackOfTier = (db: Db, tierId: string): Promise<{ stack_id: string } | undefined> =>
  db.selectFrom('promotion_stack_tiers').select('stack_id').where('tier_id', '=', tierId).limit(1).executeTakeFirst();

/** A campaign's stacks, oldest first (at most MAX_STACKS_PER_CAMPAIGN). */
export const listCampaignStacks = (db: Db, campaignId: string): Promise<StackRow[]> =>
  db.selectFrom('promotion_stacks').selectAll().where('campaign_id', '=', campaignId).orderBy('created_at').execute();

export interface StacksFilter {
  createdBefore?: string;
  createdAfter?: string;
  updatedBefore?: string;
  updatedAfter?: string;
}

/**
 * Stacks of live campaigns, filtered by their dates: a page walks its order's index and checks
 * a date range on another field on the way (`notIndexed`); the count may use any index.
 */
function stacksQuery(db: Db, filter: StacksFilter, order?: 'created_at' | 'updated_at' | 'name') {
  const dateTerm = (field: 'created_at' | 'updated_at') =>
    order === undefined || order === field
      ? (`promotion_stacks.${field}` as const)
      : notIndexed(`promotion_stacks.${field}`);
  let query = db
    .selectFrom('promotion_stacks')
    .innerJoin('campaigns', 'campaigns.id', 'promotion_stacks.campaign_id')
    .where('campaigns.deleted_at', 'is', null);
  if (filter.createdBefore) query = query.where(dateTerm('created_at'), '<', filter.createdBefore);
  if (filter.createdAfter) query = query.where(dateTerm('created_at'), '>', filter.createdAfter);
  if (filter.updatedBefore) query = query.where(dateTerm('updated_at'), '<', filter.updatedBefore);
  if (filter.updatedAfter) query = query.where(dateTerm('updated_at'), '>', filter.updatedAfter);
  return query;
}

export function listStacksPage(
  db: Db,
  filter: StacksFilter,
  page: { limit: number; offset: number; order: OrderBy<'created_at' | 'updated_at' | 'name'> },
): Promise<StackRow[]> {
  return stacksQuery(db, filter, page.order.field)
    .selectAll('promotion_stacks')
    .orderBy(`promotion_stacks.${page.order.field}`, page.order.direction)
    .orderBy('promotion_stacks.seq', page.order.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countStacks(db: Db, filter: StacksFilter): Promise<number> {
  return (
    await stacksQuery(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
}

/**
 * A batch of the stacks whose campaign is live, active and within its dates at `now`, newest
 * first (a qualification's PROMOTION_STACKS): walked in promotion_stacks_created_at.
 */
export function listAvailableStackKeys(
  db: Db,
  walk: { now: string; createdBefore: string | null; after: WalkPosition | null; limit: number },
): Promise<Array<{ id: string; created_at: string; seq: number }>> {
  const { now } = walk;
  const query = db
    .selectFrom('promotion_stacks')
    .innerJoin('campaigns', 'campaigns.id', 'promotion_stacks.campaign_id')
    .select(['promotion_stacks.id', 'promotion_stacks.created_at', 'promotion_stacks.seq'])
    .where('campaigns.deleted_at', 'is', null)
    .where('campaigns.active', '=', 1)
    .where((eb) => eb.or([eb('campaigns.start_date', 'is', null), eb('campaigns.start_date', '<=', now)]))
    .where((eb) => eb.or([eb('campaigns.expiration_date', 'is', null), eb('campaigns.expiration_date', '>', now)]));
  return newestFirst(query, 'promotion_stacks', walk).execute();
}
