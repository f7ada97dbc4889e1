import { checkValidity, validityColumns, type ValidityColumns } from '../../engine/validity/index.js';
import { AppError, invalidPayload, notFound } from '../../lib/errors.js';
import { resolveCategoryId } from '../categories/index.js';
import { templateOf } from './campaign-template.rules.js';
import * as repo from './campaigns.repository.js';
import type { UpdateCampaignBody } from './campaigns.schemas.js';
import { findCampaign, type CampaignRow } from './campaigns.service.js';
import type { Db, Tx } from '../../db/engine.js';

const flag = (value: boolean): number => (value ? 1 : 0);

function plainFields(body: UpdateCampaignBody): repo.CampaignPatch {
  const patch: repo.CampaignPatch = {};
  if (body.description !== undefined) patch.description = body.description;
  if (body.type !== undefined) patch.type = body.type;
  if (body.join_once !== undefined) patch.join_once = flag(body.join_once);
  if (body.auto_join !== undefined) patch.auto_join = flag(body.auto_join);
  if (body.use_voucher_metadata_schema !== undefined)
    patch.use_voucher_metadata_schema = flag(body.use_voucher_metadata_schema);
  if (body.activity_duration_after_publishing !== undefined)
    patch.activity_duration_after_publishing = body.activity_duration_after_publishing;
  if (body.metadata !== undefined) patch.metadata = JSON.stringify(body.metadata);
  return patch;
}

function withDiscount(campaign: CampaignRow, discount: Record<string, unknown>): string {
  const template = templateOf(campaign);
  if (!template || template.type !== 'DISCOUNT_VOUCHER') {
    throw new AppError('invalid_campaign', `Campaign ${campaign.id} has no discount vouchers; discount cannot be set`);
  }
  return JSON.stringify({ ...template, discount });
}

/** A loyalty program's tiers expiration: replaced as a whole, null clears it. */
function withTiersExpiration(
  campaign: CampaignRow,
  value: UpdateCampaignBody['loyalty_tiers_expiration'],
): string | null {
  if (campaign.campaign_type !== 'LOYALTY_PROGRAM') {
    throw invalidPayload('loyalty_tiers_expiration is allowed only in a LOYALTY_PROGRAM campaign');
  }
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** What changed in a campaign that its vouchers carry too. */
export interface CampaignChanges {
  campaign: CampaignRow;
  /** The validity columns the body set (absent ones are left out). */
  validity: Partial<ValidityColumns>;
  discount?: Record<string, unknown>;
}

/**
 * The campaign row of PUT /v1/campaigns/{id or name}, inside the caller's transaction, which
 * carries the validity and discount changes to the vouchers (vouchers/campaign-vouchers.service.ts).
 */
export async function changeCampaign(
  trx: Tx,
  idOrName: string,
  body: UpdateCampaignBody,
  now: string,
): Promise<CampaignChanges> {
  const campaign = await findCampaign(trx, idOrName);
  const validity = validityColumns(body);
  checkValidity({ ...campaign, ...validity });
  const patch: repo.CampaignPatch = { ...plainFields(body), ...validity, updated_at: now };
  // A loyalty campaign's join_once stays true, as the reference forces it.
  if (campaign.campaign_type === 'LOYALTY_PROGRAM') delete patch.join_once;
  const categoryId = await resolveCategoryId(trx, body, now);
  if (categoryId !== undefined) patch.category_id = categoryId;
  if (body.discount !== undefined) patch.voucher = withDiscount(campaign, body.discount);
  if (body.loyalty_tiers_expiration !== undefined)
    patch.loyalty_tiers_expiration = withTiersExpiration(campaign, body.loyalty_tiers_expiration);
  await repo.updateCampaignRow(trx, campaign.id, patch);
  return { campaign, validity, ...(body.discount !== undefined ? { discount: body.discount } : {}) };
}

/** The campaign disappears at once (its name is free again); its row stays until its vouchers are gone. */
export async function hideCampaign(trx: Tx, idOrName: string, now: string): Promise<CampaignRow> {
  const campaign = await findCampaign(trx, idOrName);
  if (!(await repo.markCampaignDeleted(trx, campaign.id, now))) throw notFound('campaign', idOrName);
  return campaign;
}
