import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { parse } from '../../lib/validate.js';
import { requireTemplate, findCampaign } from '../campaigns/index.js';
import { JobType } from '../../lib/enums.js';
import { notifyJobEnqueued } from '../../jobs/jobs.events.js';
import { addJobItems, enqueueJob } from '../../jobs/jobs.service.js';
import { startStaging, type Staging } from '../../jobs/staging.service.js';
import { importBodySchema } from './vouchers.schemas.js';

/** What a CAMPAIGN.VOUCHERS_IMPORT job carries; its items are stored beside it. */
export interface ImportPayload {
  campaign_id: string;
  campaign_name: string;
}

type ImportDeps = Pick<Deps, 'db' | 'clock'>;

const hasNoCode = (item: Record<string, unknown> | undefined): boolean =>
  item?.code === undefined || item.code === null || item.code === '';

/**
 * POST /v1/campaigns/{id}/import: a body that is not a non-empty array of objects, or items
 * without a code, are refused before any job starts (400). Otherwise the items and the
 * CAMPAIGN.VOUCHERS_IMPORT job are stored in one transaction; each item is checked by the job,
 * and bad ones are reported in its result.
 */
export async function importVouchers(
  deps: ImportDeps,
  campaignIdOrName: string,
  body: unknown,
  actor: Actor,
): Promise<{ async_action_id: string }> {
  const items = parse(importBodySchema, body, 'body');
  const missing = items.filter(hasNoCode).length;
  if (missing > 0) throw new AppError('invalid_voucher', `Found ${missing} voucher(s) without 'code' value`);
  const now = isoNow(deps.clock);
  const jobId = await deps.db.transaction().execute(async (trx) => {
    const campaign = await findCampaign(trx, campaignIdOrName);
    requireTemplate(campaign);
    const payload: ImportPayload = { campaign_id: campaign.id, campaign_name: campaign.name };
    const id = await enqueueJob(trx, {
      type: JobType.vouchersImport,
      payload,
      total: items.length,
      requestId: actor.request_id,
      now,
    });
    await addJobItems(trx, id, 0, items);
    return id;
  });
  notifyJobEnqueued();
  return { async_action_id: jobId };
}

/**
 * An import fed item by item (`promo import` streaming a file): the campaign is checked, then
 * the items go to a staged CAMPAIGN.VOUCHERS_IMPORT job (src/jobs/staging.service.ts).
 */
export async function startImportStaging(
  deps: Pick<Deps, 'db' | 'engine' | 'clock'>,
  campaignIdOrName: string,
  actor: Actor,
): Promise<Staging> {
  const campaign = await findCampaign(deps.db, campaignIdOrName);
  requireTemplate(campaign);
  const payload: ImportPayload = { campaign_id: campaign.id, campaign_name: campaign.name };
  return startStaging(deps, { type: JobType.vouchersImport, payload, requestId: actor.request_id });
}
