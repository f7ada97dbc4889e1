import type { Tx } from '../../db/engine.js';
import { duplicateFound, invalidPayload } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { resolveCategoryId } from '../categories/index.js';
import { templateFromBody } from './campaign-template.rules.js';
import * as repo from './campaigns.repository.js';
import type { CreateCampaignBody } from './campaigns.schemas.js';
import { addPromotionTiers, newValidity } from './promotion-tier-rows.service.js';
import { findCampaign, type CampaignRow } from './campaigns.service.js';

const flag = (value: boolean | undefined, fallback = false): number => ((value ?? fallback) ? 1 : 0);

/**
 * The campaign of POST /v1/campaigns and its promotion tiers, inside the caller's transaction
 * (which adds the first vouchers: vouchers/campaign-vouchers.service.ts). Its vouchers_count
 * starts at 0 and follows the vouchers actually made.
 */
export async function insertCampaign(trx: Tx, body: CreateCampaignBody, now: string): Promise<CampaignRow> {
  const template = templateFromBody(body);
  const validity = newValidity(body);
  if (body.loyalty_tiers_expiration != null && body.campaign_type !== 'LOYALTY_PROGRAM') {
    throw invalidPayload('loyalty_tiers_expiration is allowed only in a LOYALTY_PROGRAM campaign');
  }
  if (await repo.findLiveCampaignByName(trx, body.name)) throw duplicateFound('campaign', 'name', body.name);
  const id = newId('camp_');
  await repo.insertCampaign(trx, {
    id,
    name: body.name,
    description: body.description ?? null,
    campaign_type: body.campaign_type,
    // create-campaign's defaults: a STATIC campaign, vouchers read the voucher metadata schema.
    type: body.type ?? 'STATIC',
    voucher: template ? JSON.stringify(template) : null,
    referral_program: body.referral_program ? JSON.stringify(body.referral_program) : null,
    auto_join: flag(body.auto_join),
    // The reference forces join_once to true for loyalty campaigns, even when false is sent.
    join_once: body.campaign_type === 'LOYALTY_PROGRAM' ? 1 : flag(body.join_once),
    use_voucher_metadata_schema: flag(body.use_voucher_metadata_schema, true),
    ...validity,
    activity_duration_after_publishing: body.activity_duration_after_publishing ?? null,
    vouchers_count: 0,
    active: 1,
    metadata: JSON.stringify(body.metadata ?? {}),
    category_id: (await resolveCategoryId(trx, body, now)) ?? null,
    creation_status: 'DONE',
    vouchers_generation_status: 'DONE',
    protected: 0,
    created_at: now,
    updated_at: null,
    deleted_at: null,
    loyalty_tiers_expiration: body.loyalty_tiers_expiration ? JSON.stringify(body.loyalty_tiers_expiration) : null,
  });
  if (body.promotion)
    await addPromotionTiers(trx, id, body.promotion.tiers ?? [], {
      now,
      firstHierarchy: 1,
      path: (i) => `promotion.tiers[${i}].`,
    });
  return findCampaign(trx, id);
}
