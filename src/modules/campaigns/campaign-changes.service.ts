import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import { notifyJobEnqueued } from '../../jobs/jobs.events.js';
import { enqueueCampaignVouchersDelete, enqueueCampaignVouchersUpdate } from '../vouchers/campaign-vouchers.service.js';
import type { StoredTemplate } from '../vouchers/voucher-draft.js';
import { findCampaign } from './campaign-lookup.service.js';
import type { CampaignView } from './campaigns.presenter.js';
import * as repo from './campaigns.repository.js';
import type { UpdateCampaignBody } from './campaigns.schemas.js';
import { getCampaign } from './campaigns.service.js';
import { resolveCategoryId } from './categories.service.js';
import { checkValidity, validityColumns, type ValidityColumns } from './validity.js';

type CampaignDeps = Pick<Deps, 'db' | 'clock'>;

const flag = (value: boolean): number => (value ? 1 : 0);

function plainFields(body: UpdateCampaignBody): repo.CampaignPatch {
  const patch: repo.CampaignPatch = {};
  if (body.description !== undefined) patch.description = body.description;
  if (body.type !== undefined) patch.type = body.type;
  if (body.join_once !== undefined) patch.join_once = flag(body.join_once);
  if (body.auto_join !== undefined) patch.auto_join = flag(body.auto_join);
  if (body.use_voucher_metadata_schema !== undefined) patch.use_voucher_metadata_schema = flag(body.use_voucher_metadata_schema);
  if (body.activity_duration_after_publishing !== undefined) patch.activity_duration_after_publishing = body.activity_duration_after_publishing;
  if (body.metadata !== undefined) patch.metadata = JSON.stringify(body.metadata);
  return patch;
}

function withDiscount(campaign: repo.CampaignRow, discount: Record<string, unknown>): string {
  const template = campaign.voucher === null ? null : (JSON.parse(campaign.voucher) as StoredTemplate);
  if (!template || template.type !== 'DISCOUNT_VOUCHER') {
    throw new AppError('invalid_campaign', `Campaign ${campaign.id} has no discount vouchers; discount cannot be set`);
  }
  return JSON.stringify({ ...template, discount });
}

/**
 * PUT /v1/campaigns/{id or name}. Validity and discount changes reach the campaign's existing
 * vouchers through a CAMPAIGN.VOUCHERS_UPDATE job enqueued in the same transaction.
 */
export async function updateCampaign(deps: CampaignDeps, idOrName: string, body: UpdateCampaignBody, actor: Actor): Promise<CampaignView> {
  const now = isoNow(deps.clock);
  const { id, jobStarted } = await deps.db.transaction().execute(async (trx) => {
    const campaign = await findCampaign(trx, idOrName);
    const validity = validityColumns(body);
    checkValidity({ ...campaign, ...validity } as ValidityColumns);
    const patch: repo.CampaignPatch = { ...plainFields(body), ...validity, updated_at: now };
    const categoryId = await resolveCategoryId(trx, body, now);
    if (categoryId !== undefined) patch.category_id = categoryId;
    if (body.discount !== undefined) patch.voucher = withDiscount(campaign, body.discount);
    await repo.updateCampaign(trx, campaign.id, patch);
    const voucherPatch = { ...validity, ...(body.discount !== undefined ? { discount: JSON.stringify(body.discount) } : {}) };
    const propagate = Object.keys(voucherPatch).length > 0 && campaign.vouchers_count > 0;
    if (propagate) await enqueueCampaignVouchersUpdate(trx, campaign, voucherPatch, actor.request_id, now);
    return { id: campaign.id, jobStarted: propagate };
  });
  if (jobStarted) notifyJobEnqueued();
  return getCampaign(deps, id);
}

/**
 * DELETE /v1/campaigns/{id or name}: the campaign disappears at once (its name is free again)
 * and a CAMPAIGN.VOUCHERS_DELETE job removes its vouchers, then its row.
 */
export async function deleteCampaign(deps: CampaignDeps, idOrName: string, actor: Actor): Promise<{ async_action_id: string }> {
  const now = isoNow(deps.clock);
  const jobId = await deps.db.transaction().execute(async (trx) => {
    const campaign = await findCampaign(trx, idOrName);
    if (!(await repo.markCampaignDeleted(trx, campaign.id, now))) throw notFound('campaign', idOrName);
    return enqueueCampaignVouchersDelete(trx, campaign, actor.request_id, now);
  });
  notifyJobEnqueued();
  return { async_action_id: jobId };
}
