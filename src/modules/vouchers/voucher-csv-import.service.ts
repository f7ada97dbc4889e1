import type { Deps } from '../../app/deps.js';
import type { CsvRecord } from '../../jobs/item-reader.js';
import { csvImportJob } from '../../jobs/row-import.js';
import { stageUpload, startStaging, type Staging } from '../../jobs/staging.service.js';
import type { Actor } from '../../lib/actor.js';
import { JobType } from '../../lib/enums.js';
import { requireTemplate, findCampaign } from '../campaigns/index.js';

type StagingDeps = Pick<Deps, 'db' | 'engine' | 'clock'>;
type Answer = Promise<{ async_action_id: string }>;

/** The staging input of a CSV import into a campaign (404 for an unknown one, 400 for one without vouchers). */
async function campaignJob(deps: StagingDeps, campaignIdOrName: string, actor: Actor) {
  const campaign = await findCampaign(deps.db, campaignIdOrName);
  requireTemplate(campaign);
  return csvImportJob(JobType.campaignVouchersImportCsv, actor, campaign);
}

/** `promo import vouchers.csv --type vouchers [--campaign X]`: a VOUCHERS.IMPORT_CSV or CAMPAIGN.VOUCHERS_IMPORT_CSV job fed row by row. */
export async function startVouchersCsvStaging(
  deps: StagingDeps,
  campaignIdOrName: string | undefined,
  actor: Actor,
): Promise<Staging> {
  return startStaging(
    deps,
    campaignIdOrName === undefined
      ? csvImportJob(JobType.vouchersImportCsv, actor)
      : await campaignJob(deps, campaignIdOrName, actor),
  );
}

/** POST /v1/vouchers/importCSV: the uploaded rows go to a VOUCHERS.IMPORT_CSV job as they stream in. */
export const importVouchersCsv = (deps: StagingDeps, rows: AsyncIterable<CsvRecord>, actor: Actor): Answer =>
  stageUpload(deps, csvImportJob(JobType.vouchersImportCsv, actor), rows, 'vouchers');

/**
 * POST /v1/campaigns/{id}/importCSV: the campaign is checked before the upload is read, then
 * the rows go to a CAMPAIGN.VOUCHERS_IMPORT_CSV job as they stream in.
 */
export const campaignCsvImport = async (deps: StagingDeps, campaignIdOrName: string, actor: Actor) => {
  const job = await campaignJob(deps, campaignIdOrName, actor);
  return (rows: AsyncIterable<CsvRecord>): Answer => stageUpload(deps, job, rows, 'vouchers');
};
