import type { Tx } from '../../db/engine.js';
import {
  allValidityColumns,
  checkValidity,
  validityColumns,
  type ValidityColumns,
  type ValidityInput,
} from '../../engine/validity/index.js';
import { newId } from '../../lib/ids.js';
import { resolveCategoryId } from '../categories/index.js';
import * as repo from './campaigns.repository.js';
import { tierDiscount, type TierBody } from './promotion-tiers.schemas.js';

/** A new resource's validity: every column, checked. */
export function newValidity(input: ValidityInput, path = ''): ValidityColumns {
  const columns = allValidityColumns(validityColumns(input));
  checkValidity(columns, path);
  return columns;
}

/**
 * Inserts promotion tiers of a campaign, inside the caller's transaction: the one path for the
 * tiers of POST /v1/campaigns and of POST /v1/promotions/{campaignId}/tiers. A tier without a
 * `hierarchy` takes `firstHierarchy` plus its index. `path` prefixes messages
 * (`promotion.tiers[0].`).
 */
export async function addPromotionTiers(
  trx: Tx,
  campaignId: string,
  tiers: TierBody[],
  options: { now: string; firstHierarchy: number; path: (i: number) => string },
): Promise<repo.TierInsert[]> {
  const rows: repo.TierInsert[] = [];
  for (const [i, tier] of tiers.entries()) {
    rows.push({
      id: newId('promo_'),
      campaign_id: campaignId,
      name: tier.name,
      banner: tier.banner ?? null,
      action: JSON.stringify({ discount: tierDiscount(tier.action) }),
      metadata: JSON.stringify(tier.metadata ?? {}),
      hierarchy: tier.hierarchy ?? options.firstHierarchy + i,
      active: (tier.active ?? true) ? 1 : 0,
      ...newValidity(tier, options.path(i)),
      category_id: (await resolveCategoryId(trx, tier, options.now)) ?? null,
      created_at: options.now,
      updated_at: null,
    });
  }
  await repo.insertPromotionTierRows(trx, rows);
  return rows;
}
