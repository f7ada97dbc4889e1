import type { Deps } from '../../app/deps.js';
import { jobRegistry } from '../../root/job-registry.js';
import { runJobToEnd } from '../../jobs/follow.js';
import { itemFormatOf, readItems } from '../../jobs/item-reader.js';
import { getAsyncAction } from '../../jobs/jobs.service.js';
import { stageItems, type Staging } from '../../jobs/staging.service.js';
import { internalActor } from '../../lib/actor.js';
import { ITEM_FILE_FORMATS, type ItemFileFormat } from '../../lib/enums.js';
import { AppError } from '../../lib/errors.js';
import { startProductsCsvStaging, startSkusCsvStaging } from '../../modules/catalog/index.js';
import { startCustomersCsvStaging } from '../../modules/customers/index.js';
import { startOrderImportStaging } from '../../modules/orders/index.js';
import { startVouchersCsvStaging, startImportStaging } from '../../modules/vouchers/index.js';
import { stderrProgress } from '../../tui/progress-line.js';
import { dryRunOrders } from './import-dry-run.js';
import { printFailures } from '../job-output.js';
import { requireFile } from '../mistakes.js';
import { printJson, runWithDeps, UsageError, type CommonOptions } from '../run.js';

interface ImportOptions extends CommonOptions {
  type?: string;
  campaign?: string;
  format?: string;
  dryRun?: boolean;
  resume?: string;
}

interface ImportType {
  what: string;
  /** The file formats it reads: CSV rows go to the *_IMPORT_CSV jobs, JSON items to the JSON imports. */
  formats: readonly ItemFileFormat[];
  start: (deps: Deps, options: ImportOptions, format: ItemFileFormat) => Promise<Staging>;
}

const JSON_FORMATS = ['json', 'ndjson'] as const;

/**
 * What each `--type` imports: the name of its items, the formats it reads, and how its staged
 * job starts (checking its options).
 */
const IMPORT_TYPES: Record<string, ImportType> = {
  orders: { what: 'orders', formats: JSON_FORMATS, start: (deps) => startOrderImportStaging(deps, internalActor()) },
  vouchers: {
    what: 'vouchers',
    formats: [...JSON_FORMATS, 'csv'],
    start: (deps, options, format) =>
      format === 'csv'
        ? startVouchersCsvStaging(deps, options.campaign, internalActor())
        : startImportStaging(deps, options.campaign as string, internalActor()),
  },
  customers: { what: 'customers', formats: ['csv'], start: (deps) => startCustomersCsvStaging(deps, internalActor()) },
  products: { what: 'products', formats: ['csv'], start: (deps) => startProductsCsvStaging(deps, internalActor()) },
  skus: { what: 'skus', formats: ['csv'], start: (deps) => startSkusCsvStaging(deps, internalActor()) },
};

/** `--format`, else the file name's; stdin of a type that reads one format only is that format. */
const formatOf = (source: string, type: string, options: ImportOptions): ItemFileFormat => {
  const only = IMPORT_TYPES[type]?.formats;
  if (source === '-' && options.format === undefined && only?.length === 1) return only[0] as ItemFileFormat;
  return itemFormatOf(source, options.format as ItemFileFormat | undefined);
};

/** Refuses bad options and a file that cannot be read, before the database is opened. */
function refuseOptions(source: string | undefined, type: string, options: ImportOptions): void {
  if (source === undefined) {
    if (options.resume) return;
    throw new UsageError('give a file to import (or - for stdin), or --resume <job id>');
  }
  if (options.resume) throw new UsageError('--resume takes no file: the job already holds its items');
  if (options.dryRun && type !== 'orders') throw new UsageError('--dry-run checks orders only');
  if (!IMPORT_TYPES[type])
    throw new UsageError(`--type must be ${Object.keys(IMPORT_TYPES).join(' or ')}, not ${type}`);
  if (options.format !== undefined && !(ITEM_FILE_FORMATS as readonly string[]).includes(options.format)) {
    throw new UsageError(`--format must be ${ITEM_FILE_FORMATS.join(' or ')}, not ${options.format}`);
  }
  const format = formatOf(source, type, options);
  if (!(IMPORT_TYPES[type] as ImportType).formats.includes(format)) {
    throw new UsageError(
      `--type ${type} reads ${(IMPORT_TYPES[type] as ImportType).formats.join(' or ')}, not ${format}`,
    );
  }
  if (type === 'vouchers' && format !== 'csv' && !options.campaign)
    throw new UsageError('--campaign <id or name> is required with --type vouchers');
  if (source !== '-') requireFile(source);
}

/** Prints the summary and every failure (streamed); fails when the job failed or any item did. */
async function report(deps: Deps, jobId: string, json: boolean | undefined): Promise<void> {
  const action = await getAsyncAction(deps, jobId);
  const result = (action.result ?? {}) as { message?: string; done_count?: number; failed_count?: number };
  if (json) printJson(action);
  else {
    process.stdout.write(`${result.message ?? action.status}\n`);
    await printFailures(deps, jobId);
  }
  if (action.status === 'FAILED') throw new AppError('job_failed', `${jobId}: ${result.message}`);
  const failed = result.failed_count ?? 0;
  if (failed > 0)
    throw new AppError(
      'import_failed',
      `${failed} of ${failed + (result.done_count ?? 0)} item(s) failed; see ${jobId}`,
    );
}

/**
 * `promo import <file> --type vouchers --campaign X`: the job of the import endpoint, fed from
 * a streamed file (a JSON array, NDJSON for `.ndjson`/`.jsonl` or `--format ndjson`, CSV for
 * `.csv` or `--format csv`; `-` is stdin) and run in this process. Prints a summary and every failure; exits 1 if any failed.
 */
export async function importCommand(source: string | undefined, options: ImportOptions): Promise<void> {
  const type = options.type ?? 'orders';
  await runWithDeps(
    options,
    async (deps) => {
      if (source === undefined) return runToReport(deps, options.resume as string, options.json);
      const { what, start } = IMPORT_TYPES[type] as ImportType;
      const format = formatOf(source, type, options);
      const items = readItems(source, format, what);
      if (options.dryRun) return dryRunOrders(deps, items, options.json);
      const staging = await start(deps, options, format);
      await runToReport(deps, staging.jobId, options.json, () => stageItems(staging, items, what));
    },
    () => refuseOptions(source, type, options),
  );
}

/**
 * Runs the job here (or waits while another process holding it does) with a progress bar on
 * stderr, then reports. `--resume` starts here: a job left by an interrupted `promo import`
 * carries on from its last committed portion, so no order is written twice.
 */
async function runToReport(
  deps: Deps,
  jobId: string,
  json: boolean | undefined,
  preparing?: () => Promise<unknown>,
): Promise<void> {
  await getAsyncAction(deps, jobId);
  const progress = stderrProgress();
  await runJobToEnd(deps, jobRegistry, jobId, { onProgress: progress.update, preparing });
  progress.end();
  await report(deps, jobId, json);
}
