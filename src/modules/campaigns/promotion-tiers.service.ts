import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { categoriesById } from '../categories/categories.service.js';
import { presentTier } from './campaigns.presenter.js';
import * as repo from './campaigns.repository.js';
import { assignmentsOfObjects } from '../validation-rules/index.js';

type Db = Kysely<Database>;
export type TierRow = repo.TierRow;
export type PromotionTierView = ReturnType<typeof presentTier>;

/** A promotion tier with its live campaign: what redemptions and the tier endpoints read. */
export interface PromotionTierRecord {
  tier: TierRow;
  campaign: repo.CampaignRow;
  view: PromotionTierView;
}

/** The tier with this id in a live campaign, or undefined. */
export async function findPromotionTier(db: Db, id: string): Promise<PromotionTierRecord | undefined> {
  const tier = await repo.findTier(db, id);
  if (!tier) return undefined;
  const campaign = await repo.findLiveCampaignById(db, tier.campaign_id);
  if (!campaign) return undefined;
  const categories = await categoriesById(db, [tier.category_id]);
  return { tier, campaign, view: presentTier(tier, campaign, categories, await assignmentsOfObjects(db, [tier.id])) };
}
