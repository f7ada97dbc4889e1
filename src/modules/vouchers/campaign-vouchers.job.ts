import { findLiveCampaign, removeCampaignRow } from '../campaigns/campaigns.service.js';
import type { JobStep } from '../jobs/job-step.js';
import type { CampaignRangePayload } from './campaign-vouchers.service.js';
import * as repo from './vouchers.repository.js';

const nextRange = (cursor: number, total: number, maxItems: number) => ({ from: cursor, to: Math.min(total, cursor + maxItems) });

/** CAMPAIGN.VOUCHERS_DELETE: deletes the campaign's vouchers range by range, then the campaign. */
export const deleteCampaignVouchersStep: JobStep<CampaignRangePayload> = {
  async run(ctx, job, maxItems) {
    const { from, to } = nextRange(job.cursor, job.total, maxItems);
    const deleted = await repo.deleteCampaignVouchersInRange(ctx.trx, job.payload.campaign_id, from, to);
    return { cursor: to, done: deleted, failed: 0, finished: to >= job.total };
  },
  async finish(ctx, job) {
    await removeCampaignRow(ctx.trx, job.payload.campaign_id);
    return { message: `Deleted campaign ${job.payload.campaign_name} and ${job.done_count} voucher(s).`, done_count: job.done_count };
  },
};

/** CAMPAIGN.VOUCHERS_UPDATE: applies the campaign's changes to its vouchers, range by range. */
export const updateCampaignVouchersStep: JobStep<CampaignRangePayload> = {
  async run(ctx, job, maxItems) {
    const { from, to } = nextRange(job.cursor, job.total, maxItems);
    const live = await findLiveCampaign(ctx.trx, job.payload.campaign_id);
    const updated = live ? await repo.updateCampaignVouchersInRange(ctx.trx, job.payload.campaign_id, from, to, { ...job.payload.patch, updated_at: ctx.now }) : 0;
    return { cursor: live ? to : job.total, done: updated, failed: 0, finished: !live || to >= job.total };
  },
  async finish(_ctx, job) {
    return { message: `Updated ${job.done_count} voucher(s) of campaign ${job.payload.campaign_name}.`, done_count: job.done_count };
  },
};
