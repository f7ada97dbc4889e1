import type { Deps } from '../../app/deps.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import { listEnvelope } from '../../lib/pagination.js';
import { categoriesById } from '../categories/index.js';
import { presentPromotionTier } from './campaigns.presenter.js';
import * as repo from './campaigns.repository.js';
import * as tiers from './promotion-tiers.repository.js';
import type { PromotionTiersListQuery } from './promotion-tiers.schemas.js';
import { findCampaign } from './campaigns.service.js';
import { assignmentsOfObjects } from '../validation-rules/index.js';
import type { Db } from '../../db/engine.js';

export type PromotionTierRow = repo.PromotionTierRow;
export type PromotionTierView = ReturnType<typeof presentPromotionTier>;

/** A promotion tier with its live campaign: what redemptions and the tier endpoints read. */
export interface PromotionTierRecord {
  tier: PromotionTierRow;
  campaign: repo.CampaignRow;
  view: PromotionTierView;
}

/** The tier with this id in a live campaign, or undefined. */
export async function findPromotionTier(db: Db, id: string): Promise<PromotionTierRecord | undefined> {
  const tier = await repo.findPromotionTierRow(db, id);
  if (!tier) return undefined;
  const campaign = await repo.findLiveCampaignById(db, tier.campaign_id);
  if (!campaign) return undefined;
  const categories = await categoriesById(db, [tier.category_id]);
  return {
    tier,
    campaign,
    view: presentPromotionTier(tier, campaign, categories, await assignmentsOfObjects(db, [tier.id])),
  };
}

/** Several tiers by id in four reads whatever their number (a request's or a qualification's), by id; absent as findPromotionTier. */
export async function findPromotionTiers(db: Db, ids: readonly string[]): Promise<Map<string, PromotionTierRecord>> {
  const rows = await tiers.findPromotionTierRowsByIds(db, [...new Set(ids)]);
  if (rows.length === 0) return new Map();
  const live = (await tiers.listCampaignsByIds(db, [...new Set(rows.map((row) => row.campaign_id))])).filter(
    (c) => c.deleted_at === null,
  );
  const campaigns = new Map(live.map((c) => [c.id, c]));
  const categories = await categoriesById(
    db,
    rows.map((row) => row.category_id),
  );
  const assignments = await assignmentsOfObjects(
    db,
    rows.map((row) => row.id),
  );
  const found = new Map<string, PromotionTierRecord>();
  for (const tier of rows) {
    const campaign = campaigns.get(tier.campaign_id);
    if (campaign)
      found.set(tier.id, { tier, campaign, view: presentPromotionTier(tier, campaign, categories, assignments) });
  }
  return found;
}

/** The tier, or 404 promotion_tier. */
export async function requirePromotionTier(db: Db, id: string): Promise<PromotionTierRecord> {
  const found = await findPromotionTier(db, id);
  if (!found) throw notFound('promotion_tier', id);
  return found;
}

/** A live PROMOTION campaign by id or name: 404 when none, 400 invalid_campaign for another type. */
export async function findPromotionCampaign(db: Db, idOrName: string): Promise<repo.CampaignRow> {
  const campaign = await findCampaign(db, idOrName);
  if (campaign.campaign_type !== 'PROMOTION')
    throw new AppError('invalid_campaign', `Campaign ${campaign.id} is not a PROMOTION campaign`);
  return campaign;
}

/** Tiers with their campaigns and categories, in the order given. */
async function present(db: Db, rows: PromotionTierRow[], campaigns?: repo.CampaignRow[]): Promise<PromotionTierView[]> {
  const byId = new Map(
    (campaigns ?? (await tiers.listCampaignsByIds(db, [...new Set(rows.map((r) => r.campaign_id))]))).map((c) => [
      c.id,
      c,
    ]),
  );
  const categories = await categoriesById(
    db,
    rows.map((r) => r.category_id),
  );
  return rows.map((row) => presentPromotionTier(row, byId.get(row.campaign_id) as repo.CampaignRow, categories));
}

/** GET /v1/promotions/tiers/{promotionTierId}. */
export const getPromotionTier = async (deps: Pick<Deps, 'db'>, id: string): Promise<PromotionTierView> =>
  (await requirePromotionTier(deps.db, id)).view;

/**
 * GET /v1/promotions/tiers and /client/v1/promotions/tiers: tiers of every live campaign,
 * newest first unless `order` says otherwise (the reference's example); `is_available=true`
 * keeps those active now by their flags and dates and their campaign's.
 */
export async function listPromotionTiers(deps: Pick<Deps, 'db' | 'clock'>, query: PromotionTiersListQuery) {
  const filter = query.is_available === 'true' ? { availableAt: isoNow(deps.clock) } : {};
  const order = query.order ?? { field: 'created_at', direction: 'desc' };
  const rows = await tiers.listTiersPage(deps.db, filter, {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
    order,
  });
  return listEnvelope('tiers', await present(deps.db, rows), {
    total: await tiers.countPromotionTiers(deps.db, filter),
  });
}

/** The ids of the tiers available now (as `is_available=true` lists them), oldest first, at most `limit`. */
export async function listAvailableTierIds(deps: Pick<Deps, 'db' | 'clock'>, limit: number): Promise<string[]> {
  const rows = await tiers.listTiersPage(
    deps.db,
    { availableAt: isoNow(deps.clock) },
    { limit, offset: 0, order: { field: 'created_at', direction: 'asc' } },
  );
  return rows.map((row) => row.id);
}

export type { TierKey } from './promotion-tiers.repository.js';

/** GET /v1/promotions/{campaignId}/tiers: every tier of the campaign (at most MAX_PROMOTION_TIERS), by hierarchy. */
export async function listCampaignTiers(deps: Pick<Deps, 'db'>, campaignKey: string) {
  const campaign = await findPromotionCampaign(deps.db, campaignKey);
  const rows = await repo.listPromotionTierRows(deps.db, [campaign.id]);
  return listEnvelope('tiers', await present(deps.db, rows, [campaign]), { total: rows.length, has_more: false });
}
