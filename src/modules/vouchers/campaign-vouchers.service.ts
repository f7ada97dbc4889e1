import type { Tx } from '../../db/engine.js';
import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import {
  changeCampaign,
  hideCampaign,
  type CampaignChanges,
  insertCampaign,
  type CampaignView,
  type CreateCampaignBody,
  type UpdateCampaignBody,
  getCampaign,
} from '../campaigns/index.js';
import { JobType } from '../../lib/enums.js';
import { notifyJobEnqueued } from '../../jobs/jobs.events.js';
import { enqueueJob } from '../../jobs/jobs.service.js';
import { addVouchersInTransaction } from './voucher-generation.service.js';
import * as repo from './vouchers.repository.js';
import { assignRulesTo } from '../validation-rules/index.js';

/**
 * The campaign use cases that reach its vouchers, in one transaction each: create a campaign
 * with its first vouchers, change a campaign and carry the change to its vouchers, delete a
 * campaign with its vouchers. They live with the vouchers, which depend on campaigns (the
 * owner of campaign rows and voucher templates), never the other way round.
 */
type CampaignDeps = Pick<Deps, 'db' | 'clock'>;

/**
 * What a CAMPAIGN.VOUCHERS_DELETE or CAMPAIGN.VOUCHERS_UPDATE job carries. The job walks the
 * campaign's vouchers in seq order up to the highest seq at the time of the request (its
 * total); the cursor is the last seq done.
 */
export interface CampaignRangePayload {
  campaign_id: string;
  campaign_name: string;
  patch?: repo.VoucherPatch;
}

async function enqueueRangeJob(
  trx: Tx,
  type: string,
  payload: CampaignRangePayload,
  requestId: string,
  now: string,
): Promise<string> {
  const total = await repo.maxVoucherSeq(trx);
  return enqueueJob(trx, { type, payload, total, requestId, now });
}

/** POST /v1/campaigns: the campaign, its tiers, and its first vouchers (a job beyond one). */
export async function createCampaign(
  deps: CampaignDeps,
  body: CreateCampaignBody,
  actor: Actor,
): Promise<CampaignView> {
  const now = isoNow(deps.clock);
  const count = body.vouchers_count ?? 0;
  const { id, jobStarted } = await deps.db.transaction().execute(async (trx) => {
    const campaign = await insertCampaign(trx, body, now);
    if (body.validation_rules?.length)
      await assignRulesTo(trx, { type: 'campaign', id: campaign.id }, body.validation_rules, now);
    if (count === 0) return { id: campaign.id, jobStarted: false };
    const outcome = await addVouchersInTransaction(trx, campaign, {
      count,
      body: {},
      requestId: actor.request_id,
      now,
    });
    return { id: campaign.id, jobStarted: 'jobId' in outcome };
  });
  if (jobStarted) notifyJobEnqueued();
  return getCampaign(deps, id);
}

/** The columns of the campaign's vouchers that follow a change of the campaign. */
const voucherPatchOf = (changes: CampaignChanges): repo.VoucherPatch => ({
  ...changes.validity,
  ...(changes.discount !== undefined ? { discount: JSON.stringify(changes.discount) } : {}),
});

/**
 * PUT /v1/campaigns/{id or name}. Validity and discount changes reach the campaign's existing
 * vouchers through a CAMPAIGN.VOUCHERS_UPDATE job enqueued in the same transaction.
 */
export async function updateCampaign(
  deps: CampaignDeps,
  idOrName: string,
  body: UpdateCampaignBody,
  actor: Actor,
): Promise<CampaignView> {
  const now = isoNow(deps.clock);
  const { id, jobStarted } = await deps.db.transaction().execute(async (trx) => {
    const changes = await changeCampaign(trx, idOrName, body, now);
    const { campaign } = changes;
    const patch = voucherPatchOf(changes);
    const propagate = Object.keys(patch).length > 0 && campaign.vouchers_count > 0;
    if (propagate) {
      const payload: CampaignRangePayload = { campaign_id: campaign.id, campaign_name: campaign.name, patch };
      await enqueueRangeJob(trx, JobType.vouchersUpdate, payload, actor.request_id, now);
    }
    return { id: campaign.id, jobStarted: propagate };
  });
  if (jobStarted) notifyJobEnqueued();
  return getCampaign(deps, id);
}

/**
 * DELETE /v1/campaigns/{id or name}: the campaign disappears at once (its name is free again)
 * and a CAMPAIGN.VOUCHERS_DELETE job removes its vouchers, then its row.
 */
export async function deleteCampaign(
  deps: CampaignDeps,
  idOrName: string,
  actor: Actor,
): Promise<{ async_action_id: string }> {
  const now = isoNow(deps.clock);
  const jobId = await deps.db.transaction().execute(async (trx) => {
    const campaign = await hideCampaign(trx, idOrName, now);
    const payload: CampaignRangePayload = { campaign_id: campaign.id, campaign_name: campaign.name };
    return enqueueRangeJob(trx, JobType.vouchersDelete, payload, actor.request_id, now);
  });
  notifyJobEnqueued();
  return { async_action_id: jobId };
}
