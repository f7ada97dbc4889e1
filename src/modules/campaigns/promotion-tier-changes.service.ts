import type { Deps } from '../../app/deps.js';
import { checkValidity, validityColumns } from '../../engine/validity/index.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, invalidPayload } from '../../lib/errors.js';
import { resolveCategoryId } from '../categories/index.js';
import { addPromotionTiers } from './promotion-tier-rows.service.js';
import * as stacks from './promotion-stacks.repository.js';
import * as tiers from './promotion-tiers.repository.js';
import {
  MAX_PROMOTION_TIERS,
  tierDiscount,
  type TierBody,
  type UpdatePromotionTierBody,
} from './promotion-tiers.schemas.js';
import {
  findPromotionCampaign,
  requirePromotionTier,
  type PromotionTierRecord,
  type PromotionTierView,
} from './promotion-tiers.service.js';
import type { Db, Tx } from '../../db/engine.js';

/** Adding, changing, enabling and removing the promotion tiers of a PROMOTION campaign. */
type TierDeps = Pick<Deps, 'db' | 'clock'>;

/** POST /v1/promotions/{campaignId}/tiers: without a `hierarchy`, the tier comes after the campaign's last. */
export async function createPromotionTier(
  deps: TierDeps,
  campaignKey: string,
  body: TierBody,
): Promise<PromotionTierView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const campaign = await findPromotionCampaign(trx, campaignKey);
    const { count, maxHierarchy } = await tiers.campaignTierStats(trx, campaign.id);
    if (count >= MAX_PROMOTION_TIERS)
      throw invalidPayload(`A PROMOTION campaign holds at most ${MAX_PROMOTION_TIERS} tiers`);
    const [row] = await addPromotionTiers(trx, campaign.id, [body], {
      now,
      firstHierarchy: maxHierarchy + 1,
      path: () => '',
    });
    return (await requirePromotionTier(trx, row?.id as string)).view;
  });
}

function plainPatch(body: UpdatePromotionTierBody): tiers.PromotionTierPatch {
  const patch: tiers.PromotionTierPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.banner !== undefined) patch.banner = body.banner;
  if (body.action !== undefined) patch.action = JSON.stringify({ discount: tierDiscount(body.action) });
  if (body.metadata !== undefined) patch.metadata = JSON.stringify(body.metadata);
  if (body.hierarchy !== undefined) patch.hierarchy = body.hierarchy;
  if (body.active !== undefined) patch.active = body.active ? 1 : 0;
  return patch;
}

/** Applies a patch to a tier and answers it as it now is. */
async function patchTier(
  trx: Tx,
  found: PromotionTierRecord,
  patch: tiers.PromotionTierPatch,
): Promise<PromotionTierView> {
  await tiers.updatePromotionTierRow(trx, found.tier.id, patch);
  return (await requirePromotionTier(trx, found.tier.id)).view;
}

/** PUT /v1/promotions/tiers/{promotionTierId}: the fields given change; validity is checked as merged. */
export async function updatePromotionTier(
  deps: TierDeps,
  id: string,
  body: UpdatePromotionTierBody,
): Promise<PromotionTierView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const found = await requirePromotionTier(trx, id);
    const validity = validityColumns(body);
    checkValidity({ ...found.tier, ...validity });
    const patch: tiers.PromotionTierPatch = { ...plainPatch(body), ...validity, updated_at: now };
    const categoryId = await resolveCategoryId(trx, body, now);
    if (categoryId !== undefined) patch.category_id = categoryId;
    return patchTier(trx, found, patch);
  });
}

/** POST /v1/promotions/tiers/{promotionTierId}/enable and /disable: answers the tier. */
export async function setPromotionTierActive(deps: TierDeps, id: string, active: boolean): Promise<PromotionTierView> {
  const now = isoNow(deps.clock);
  return deps.db
    .transaction()
    .execute(async (trx) =>
      patchTier(trx, await requirePromotionTier(trx, id), { active: active ? 1 : 0, updated_at: now }),
    );
}

/** DELETE /v1/promotions/tiers/{promotionTierId}: refused (400 resource_in_use) while a promotion stack holds it. */
export async function deletePromotionTier(deps: TierDeps, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const found = await requirePromotionTier(trx, id);
    const stack = await stacks.findStackOfTier(trx, found.tier.id);
    if (stack)
      throw new AppError(
        'resource_in_use',
        `Promotion tier ${found.tier.id} is in promotion stack ${stack.stack_id}; remove it from the stack first`,
      );
    await tiers.deletePromotionTierRow(trx, found.tier.id);
  });
}
