import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { JobType } from '../../lib/enums.js';
import { enqueueJob } from '../../jobs/jobs.service.js';
import * as repo from './vouchers.repository.js';

/**
 * Jobs over all vouchers of a campaign (delete, update). They walk the vouchers table by seq
 * from 0 to the highest seq at the time of the request, a range of seqs per portion, so each
 * portion is one short indexed range; the cursor is the seq reached.
 */
export interface CampaignRangePayload {
  campaign_id: string;
  campaign_name: string;
  patch?: repo.VoucherPatch;
}

async function enqueueRangeJob(trx: Kysely<Database>, type: string, payload: CampaignRangePayload, requestId: string, now: string): Promise<string> {
  const total = await repo.maxVoucherSeq(trx);
  return enqueueJob(trx, { type, payload, total, requestId, now });
}

/** CAMPAIGN.VOUCHERS_DELETE, in the transaction that marks the campaign deleted. */
export const enqueueCampaignVouchersDelete = (trx: Kysely<Database>, campaign: { id: string; name: string }, requestId: string, now: string) =>
  enqueueRangeJob(trx, JobType.vouchersDelete, { campaign_id: campaign.id, campaign_name: campaign.name }, requestId, now);

/** CAMPAIGN.VOUCHERS_UPDATE: the campaign's changed validity or discount, carried to its vouchers. */
export const enqueueCampaignVouchersUpdate = (
  trx: Kysely<Database>,
  campaign: { id: string; name: string },
  patch: repo.VoucherPatch,
  requestId: string,
  now: string,
) => enqueueRangeJob(trx, JobType.vouchersUpdate, { campaign_id: campaign.id, campaign_name: campaign.name, patch }, requestId, now);
