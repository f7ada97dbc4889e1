import { findLiveCampaign, removeCampaignRow } from '../campaigns/index.js';
import type { JobStep, PortionContext, PortionJob } from '../../jobs/job-step.js';
import type { CampaignRangePayload } from './campaign-vouchers.service.js';
import * as repo from './vouchers.repository.js';

/**
 * The next portion of a job over the campaign's vouchers: seqs (cursor, to] holding the next
 * `maxItems` of them, found by keyset on vouchers_campaign_seq (the job's total, the highest
 * seq at the request, when fewer are left). So a portion costs what it changes, however
 * many vouchers the campaign and the table hold, and wherever the campaign's vouchers lie.
 */
async function nextRange(ctx: PortionContext, job: PortionJob<CampaignRangePayload>, maxItems: number) {
  const end = await repo.findNthCampaignVoucherSeq(ctx.trx, job.payload.campaign_id, job.cursor, job.total, maxItems);
  return { from: job.cursor, to: end ?? job.total };
}

/** CAMPAIGN.VOUCHERS_DELETE: deletes the campaign's vouchers portion by portion, then the campaign. */
export const deleteCampaignVouchersStep: JobStep<CampaignRangePayload> = {
  async run(ctx, job, maxItems) {
    const { from, to } = await nextRange(ctx, job, maxItems);
    const deleted = await repo.deleteCampaignVouchersInRange(ctx.trx, job.payload.campaign_id, from, to);
    return { cursor: to, done: deleted, failed: 0, finished: to >= job.total };
  },
  async finish(ctx, job) {
    await removeCampaignRow(ctx.trx, job.payload.campaign_id);
    return {
      message: `Deleted campaign ${job.payload.campaign_name} and ${job.done_count} voucher(s).`,
      done_count: job.done_count,
    };
  },
};

/** CAMPAIGN.VOUCHERS_UPDATE: applies the campaign's changes to its vouchers, portion by portion. */
export const updateCampaignVouchersStep: JobStep<CampaignRangePayload> = {
  async run(ctx, job, maxItems) {
    if (!(await findLiveCampaign(ctx.trx, job.payload.campaign_id)))
      return { cursor: job.total, done: 0, failed: 0, finished: true };
    const { from, to } = await nextRange(ctx, job, maxItems);
    const updated = await repo.updateCampaignVouchersInRange(ctx.trx, job.payload.campaign_id, from, to, {
      ...job.payload.patch,
      updated_at: ctx.now,
    });
    return { cursor: to, done: updated, failed: 0, finished: to >= job.total };
  },
  async finish(_ctx, job) {
    return {
      message: `Updated ${job.done_count} voucher(s) of campaign ${job.payload.campaign_name}.`,
      done_count: job.done_count,
    };
  },
};
