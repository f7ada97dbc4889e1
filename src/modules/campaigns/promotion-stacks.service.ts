import type { Deps } from '../../app/deps.js';
import { isoNow } from '../../lib/clock.js';
import { invalidPayload, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { listEnvelope } from '../../lib/pagination.js';
import { categoriesById, resolveCategoryId, categoriesOf, type CategoryView } from '../categories/index.js';
import * as repo from './campaigns.repository.js';
import * as stacks from './promotion-stacks.repository.js';
import {
  MAX_STACKS_PER_CAMPAIGN,
  type CreateStackBody,
  type PromotionStacksListQuery,
  type UpdateStackBody,
} from './promotion-stacks.schemas.js';
import { findPromotionCampaign } from './promotion-tiers.service.js';
import type { Db } from '../../db/engine.js';

/**
 * Promotion stacks: named, ordered sets of a PROMOTION campaign's tiers. A `promotion_stack`
 * redeemable expands into its tiers (findPromotionStack, for the redemption pipeline).
 */
type StackDeps = Pick<Deps, 'db' | 'clock'>;

/** `updated_at` and `category_id` are left out while unset, as the reference's recorded stacks show them. */
function presentStack(row: stacks.StackRow, tierIds: string[], categories: Map<string, CategoryView>) {
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at,
    ...(row.updated_at === null ? {} : { updated_at: row.updated_at }),
    campaign_id: row.campaign_id,
    object: 'promotion_stack' as const,
    tiers: { ids: tierIds, hierarchy_mode: row.hierarchy_mode },
    ...(row.category_id === null ? {} : { category_id: row.category_id }),
    categories: categoriesOf(row.category_id, categories),
  };
}
export type PromotionStackView = ReturnType<typeof presentStack>;

async function present(db: Db, rows: stacks.StackRow[]): Promise<PromotionStackView[]> {
  const tierIds = await stacks.listStackTierIds(
    db,
    rows.map((r) => r.id),
  );
  const categories = await categoriesById(
    db,
    rows.map((r) => r.category_id),
  );
  return rows.map((row) => presentStack(row, tierIds.get(row.id) ?? [], categories));
}

/** The stack with this id in a live campaign, as the redemption pipeline needs it, or undefined. */
export async function findPromotionStack(
  db: Db,
  id: string,
): Promise<{ id: string; campaign_id: string; name: string; tier_ids: string[] } | undefined> {
  const row = await stacks.findStack(db, id);
  if (!row || !(await repo.findLiveCampaignById(db, row.campaign_id))) return undefined;
  const tierIds = await stacks.listStackTierIds(db, [row.id]);
  return { id: row.id, campaign_id: row.campaign_id, name: row.name, tier_ids: tierIds.get(row.id) ?? [] };
}

/** The stack of this campaign (id or name), or 404. */
async function requireStack(db: Db, campaignKey: string, stackId: string): Promise<stacks.StackRow> {
  const campaign = await findPromotionCampaign(db, campaignKey);
  const row = await stacks.findStack(db, stackId);
  if (!row || row.campaign_id !== campaign.id) throw notFound('promotion_stack', stackId);
  return row;
}

/** Every id names a tier of this campaign (404 for an unknown tier, 400 for another campaign's). */
async function checkTiers(db: Db, campaignId: string, ids: string[]): Promise<void> {
  for (const id of ids) {
    const tier = await repo.findPromotionTierRow(db, id);
    if (!tier) throw notFound('promotion_tier', id);
    if (tier.campaign_id !== campaignId)
      throw invalidPayload(`tiers.ids: ${id} is not a tier of campaign ${campaignId}`);
  }
}

/** POST /v1/promotions/{campaignId}/stacks. */
export async function createPromotionStack(
  deps: StackDeps,
  campaignKey: string,
  body: CreateStackBody,
): Promise<PromotionStackView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const campaign = await findPromotionCampaign(trx, campaignKey);
    if ((await stacks.listCampaignStacks(trx, campaign.id)).length >= MAX_STACKS_PER_CAMPAIGN) {
      throw invalidPayload(`A PROMOTION campaign holds at most ${MAX_STACKS_PER_CAMPAIGN} promotion stacks`);
    }
    await checkTiers(trx, campaign.id, body.tiers.ids);
    const id = newId('stack_');
    const categoryId = (await resolveCategoryId(trx, { category_id: body.category_id }, now)) ?? null;
    await stacks.insertStack(trx, {
      id,
      campaign_id: campaign.id,
      name: body.name,
      hierarchy_mode: 'MANUAL',
      category_id: categoryId,
      created_at: now,
      updated_at: null,
    });
    await stacks.replaceStackTiers(trx, id, body.tiers.ids);
    return (await present(trx, [(await stacks.findStack(trx, id)) as stacks.StackRow]))[0] as PromotionStackView;
  });
}

/** PUT /v1/promotions/{campaignId}/stacks/{stackId}: the fields given change (tiers as a whole). */
export async function updatePromotionStack(
  deps: StackDeps,
  campaignKey: string,
  stackId: string,
  body: UpdateStackBody,
): Promise<PromotionStackView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const row = await requireStack(trx, campaignKey, stackId);
    const patch: stacks.StackPatch = { updated_at: now };
    if (body.name !== undefined) patch.name = body.name;
    const categoryId = await resolveCategoryId(trx, { category_id: body.category_id }, now);
    if (categoryId !== undefined) patch.category_id = categoryId;
    if (body.tiers !== undefined) {
      await checkTiers(trx, row.campaign_id, body.tiers.ids);
      await stacks.replaceStackTiers(trx, row.id, body.tiers.ids);
    }
    await stacks.updateStack(trx, row.id, patch);
    return (await present(trx, [(await stacks.findStack(trx, row.id)) as stacks.StackRow]))[0] as PromotionStackView;
  });
}

/** GET /v1/promotions/{campaignId}/stacks/{stackId}. */
export const getPromotionStack = async (
  deps: Pick<Deps, 'db'>,
  campaignKey: string,
  stackId: string,
): Promise<PromotionStackView> =>
  (await present(deps.db, [await requireStack(deps.db, campaignKey, stackId)]))[0] as PromotionStackView;

/** DELETE /v1/promotions/{campaignId}/stacks/{stackId}. */
export async function deletePromotionStack(deps: StackDeps, campaignKey: string, stackId: string): Promise<void> {
  await deps.db
    .transaction()
    .execute(async (trx) => stacks.deleteStack(trx, (await requireStack(trx, campaignKey, stackId)).id));
}

/** GET /v1/promotions/{campaignId}/stacks: every stack of the campaign, oldest first. */
export async function listCampaignStacks(deps: Pick<Deps, 'db'>, campaignKey: string) {
  const campaign = await findPromotionCampaign(deps.db, campaignKey);
  const data = await present(deps.db, await stacks.listCampaignStacks(deps.db, campaign.id));
  return listEnvelope('data', data, { total: data.length });
}

/** GET /v1/promotions/stacks: stacks of every live campaign, newest first unless `order` says otherwise. */
export async function listPromotionStacks(deps: Pick<Deps, 'db'>, query: PromotionStacksListQuery) {
  const filter = {
    createdBefore: query['created_at[before]'],
    createdAfter: query['created_at[after]'],
    updatedBefore: query['updated_at[before]'],
    updatedAfter: query['updated_at[after]'],
  };
  const order = query.order ?? { field: 'created_at', direction: 'desc' };
  const rows = await stacks.listStacksPage(deps.db, filter, {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
    order,
  });
  return listEnvelope('data', await present(deps.db, rows), { total: await stacks.countStacks(deps.db, filter) });
}
