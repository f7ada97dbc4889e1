import { createReadStream, existsSync } from 'node:fs';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import type { Deps } from '../../app/deps.js';
import { internalActor } from '../../lib/actor.js';
import { AppError, invalidPayload } from '../../lib/errors.js';
import { getAsyncAction, keepStaging } from '../../jobs/jobs.service.js';
import { failJob } from '../../jobs/portions.service.js';
import { startImportStaging, type ImportStaging } from '../../modules/vouchers/voucher-import.service.js';
import { jobRegistry } from '../../app/job-registry.js';
import { runJobToEnd } from '../../jobs/follow.js';
import { newLeaseOwner } from '../../jobs/lease-owner.js';
import { stderrProgress } from '../../tui/progress-line.js';
import { fail, printJson, runWithDeps, UsageError, type CommonOptions } from '../run.js';

interface ImportOptions extends CommonOptions {
  type?: string;
  campaign?: string;
}

const BATCH = 1000;
const STAGING_LEASE_MS = 30_000;

/** Streams the file's array into the staged job, a batch at a time: files larger than memory work. */
async function stageFile(file: string, staging: ImportStaging): Promise<number> {
  let batch: unknown[] = [];
  let count = 0;
  const items = createReadStream(file).pipe(StreamArray.withParser());
  for await (const { value } of items as AsyncIterable<{ value: unknown }>) {
    batch.push(value);
    if (batch.length >= BATCH) {
      await staging.add(batch);
      count += batch.length;
      batch = [];
    }
  }
  await staging.add(batch);
  return count + batch.length;
}

async function stageVouchers(deps: Deps, file: string, campaign: string): Promise<string> {
  const owner = newLeaseOwner();
  const staging = await startImportStaging(deps, campaign, { owner, leaseUntil: Date.now() + STAGING_LEASE_MS, actor: internalActor() });
  const beat = setInterval(() => void keepStaging(deps, staging.jobId, owner, Date.now() + STAGING_LEASE_MS), STAGING_LEASE_MS / 3);
  try {
    const count = await stageFile(file, staging);
    if (count === 0) throw invalidPayload('The file holds no vouchers');
    await staging.seal();
    return staging.jobId;
  } catch (error) {
    const reason = error instanceof AppError ? error.details : `The file is not a JSON array of vouchers: ${(error as Error).message}`;
    await failJob(deps, staging.jobId, reason, undefined, owner);
    throw error instanceof AppError ? error : invalidPayload(reason);
  } finally {
    clearInterval(beat);
  }
}

/**
 * `promo import <file> --type vouchers --campaign X`: the CAMPAIGN.VOUCHERS_IMPORT job of
 * POST /v1/campaigns/{id}/import, fed from a streamed file and run in this process. Prints a
 * summary and every failure; exits 1 if any item failed.
 */
export async function importCommand(file: string, options: ImportOptions): Promise<void> {
  const type = options.type ?? 'orders';
  if (type !== 'orders' && type !== 'vouchers') return fail(new UsageError(`--type must be orders or vouchers, not ${type}`));
  if (type === 'orders') {
    return fail(new AppError('import_type_unavailable', 'This promo cannot import orders yet; promo import --type vouchers --campaign <id or name> works'));
  }
  const campaign = options.campaign;
  if (!campaign) return fail(new UsageError('--campaign <id or name> is required with --type vouchers'));
  if (!existsSync(file)) return fail(new AppError('file_not_found', `No file at ${file}`));
  await runWithDeps(options, async (deps) => {
    const jobId = await stageVouchers(deps, file, campaign);
    const progress = stderrProgress();
    const job = await runJobToEnd(deps, jobRegistry, jobId, { onProgress: progress.update });
    progress.end();
    const action = await getAsyncAction(deps, jobId);
    const result = (action.result ?? {}) as { message?: string; failed?: Array<{ code?: string; reason: string }> };
    if (options.json) printJson(action);
    else {
      process.stdout.write(`${result.message ?? job.status}\n`);
      for (const failure of result.failed ?? []) process.stdout.write(`  ${failure.code ?? '(no code)'}: ${failure.reason}\n`);
    }
    if (job.status === 'FAILED') throw new AppError('job_failed', `${jobId}: ${result.message}`);
    if (job.failed_count > 0) {
      throw new AppError('import_failed', `${job.failed_count} of ${job.failed_count + job.done_count} item(s) failed; see ${jobId}`);
    }
  });
}
