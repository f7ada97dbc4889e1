import type { Deps } from '../../app/deps.js';
import type { CsvRecord } from '../../jobs/item-reader.js';
import { csvImportJob } from '../../jobs/row-import.js';
import { stageUpload, startStaging, type Staging } from '../../jobs/staging.service.js';
import type { Actor } from '../../lib/actor.js';
import { JobType } from '../../lib/enums.js';

type StagingDeps = Pick<Deps, 'db' | 'engine' | 'clock'>;

/** `promo import customers.csv --type customers`: a CUSTOMERS.IMPORT_CSV job fed row by row. */
export const startCustomersCsvStaging = (deps: StagingDeps, actor: Actor): Promise<Staging> =>
  startStaging(deps, csvImportJob(JobType.customersImportCsv, actor));

/** POST /v1/customers/importCSV: the uploaded rows go to a CUSTOMERS.IMPORT_CSV job as they stream in. */
export const importCustomersCsv = (
  deps: StagingDeps,
  rows: AsyncIterable<CsvRecord>,
  actor: Actor,
): Promise<{ async_action_id: string }> =>
  stageUpload(deps, csvImportJob(JobType.customersImportCsv, actor), rows, 'customers');
