import type { Deps } from '../../app/deps.js';
import type { CsvRecord } from '../../jobs/item-reader.js';
import { stageUpload, startStaging, type Staging } from '../../jobs/staging.service.js';
import type { Actor } from '../../lib/actor.js';
import { JobType } from '../../lib/enums.js';

/** What a CSV import job carries: who asked. Its rows are stored beside it. */
export interface CsvImportPayload {
  actor: Actor;
}

type StagingDeps = Pick<Deps, 'db' | 'sqlite' | 'clock'>;

const stagingInput = (actor: Actor) => ({ type: JobType.customersImportCsv, payload: { actor } satisfies CsvImportPayload, requestId: actor.request_id });

/** `promo import customers.csv --type customers`: a CUSTOMERS.IMPORT_CSV job fed row by row. */
export const startCustomersCsvStaging = (deps: StagingDeps, actor: Actor): Promise<Staging> => startStaging(deps, stagingInput(actor));

/** POST /v1/customers/importCSV: the uploaded rows go to a CUSTOMERS.IMPORT_CSV job as they stream in. */
export const importCustomersCsv = (deps: StagingDeps, rows: AsyncIterable<CsvRecord>, actor: Actor): Promise<{ async_action_id: string }> =>
  stageUpload(deps, stagingInput(actor), rows, 'customers');
