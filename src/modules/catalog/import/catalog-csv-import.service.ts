import type { Deps } from '../../../app/deps.js';
import type { CsvRecord } from '../../../jobs/item-reader.js';
import { csvImportJob } from '../../../jobs/row-import.js';
import { stageUpload, startStaging, type Staging } from '../../../jobs/staging.service.js';
import type { Actor } from '../../../lib/actor.js';
import { JobType } from '../../../lib/enums.js';

type StagingDeps = Pick<Deps, 'db' | 'engine' | 'clock'>;
type Answer = Promise<{ async_action_id: string }>;

/** `promo import products.csv --type products`: a PRODUCTS.IMPORT_CSV job fed row by row. */
export const startProductsCsvStaging = (deps: StagingDeps, actor: Actor): Promise<Staging> =>
  startStaging(deps, csvImportJob(JobType.productsImportCsv, actor));

/** `promo import skus.csv --type skus`: a SKUS.IMPORT_CSV job fed row by row. */
export const startSkusCsvStaging = (deps: StagingDeps, actor: Actor): Promise<Staging> =>
  startStaging(deps, csvImportJob(JobType.skusImportCsv, actor));

/** POST /v1/products/importCSV: the uploaded rows go to a PRODUCTS.IMPORT_CSV job as they stream in. */
export const importProductsCsv = (deps: StagingDeps, rows: AsyncIterable<CsvRecord>, actor: Actor): Answer =>
  stageUpload(deps, csvImportJob(JobType.productsImportCsv, actor), rows, 'products');

/** POST /v1/skus/importCSV: the uploaded rows go to a SKUS.IMPORT_CSV job as they stream in. */
export const importSkusCsv = (deps: StagingDeps, rows: AsyncIterable<CsvRecord>, actor: Actor): Answer =>
  stageUpload(deps, csvImportJob(JobType.skusImportCsv, actor), rows, 'skus');
