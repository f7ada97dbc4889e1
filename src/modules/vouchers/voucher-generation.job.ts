import { codeGenerator } from '../../engine/codes/index.js';
import { addToVouchersCount, findLiveCampaign, setGenerationStatus } from '../campaigns/index.js';
import { JobFailure, type JobStep, type PortionJob } from '../../jobs/job-step.js';
import { JobType } from '../../lib/enums.js';
import { listOpenJobs } from '../../jobs/jobs.service.js';
import type { GeneratePayload } from './voucher-generation.service.js';
import { timeOrderedIds } from '../../lib/ids.js';
import { voucherInserter } from './voucher-inserts.repository.js';
import { GENERATION_COMPLETED, GENERATION_FAILED } from './generation-completed.seam.js';

/** Generators live as long as the worker thread, one per job (a job moves between threads). */
const generators = new Map<string, () => string>();
function codesFor(job: PortionJob<GeneratePayload>): () => string {
  let next = generators.get(job.id);
  if (!next) {
    if (generators.size > 64) generators.clear();
    next = codeGenerator(job.payload.template);
    generators.set(job.id, next);
  }
  return next;
}

/**
 * Codes inserted at once. A portion that an API write can ask to end early (SQLite: it waits
 * for the one write lock) looks between batches of YIELD_BATCH; one that cannot (PostgreSQL,
 * where writes wait for no portion) sends BULK_BATCH at a time (one multi-row statement each).
 */
const YIELD_BATCH = 16;
const BULK_BATCH = 1000;

/** Codes and ids drawn before the write lock is taken. */
interface Drawn {
  codes: string[];
  ids: string[];
}

/** Draws from `drawn` first, then from the generators (collisions need more than drawn). */
const take = (list: string[] | undefined, at: number, next: () => string): string => list?.[at] ?? next();

/**
 * CAMPAIGN.VOUCHERS_GENERATE: each portion inserts the next codes of the job (drawing again
 * on a collision with any code in the database) and adds them to the campaign's count. The
 * cursor is the number of vouchers generated.
 */
export const generateVouchersStep: JobStep<GeneratePayload, Drawn> = {
  prepare(job, maxItems) {
    const count = Math.min(maxItems, job.total - job.cursor);
    const nextCode = codesFor(job);
    const nextId = timeOrderedIds('v_', Date.now());
    // In code order, the portion's inserts walk the code indexes (the unique code, and the
    // campaign's code order for the list) page by page instead of landing all over them.
    return { codes: Array.from({ length: count }, nextCode).sort(), ids: Array.from({ length: count }, nextId) };
  },

  async run(ctx, job, maxItems, drawn) {
    const { campaign_id: campaignId, draft } = job.payload;
    if (!(await findLiveCampaign(ctx.trx, campaignId))) {
      throw new JobFailure(
        `Campaign ${campaignId} was deleted after ${job.cursor} of ${job.total} vouchers were generated.`,
      );
    }
    const count = Math.min(maxItems, job.total - job.cursor);
    const insert = voucherInserter(ctx.trx, ctx.engine).forDraft({ ...draft, created_at: ctx.now, updated_at: null });
    const nextCode = codesFor(job);
    const nextId = timeOrderedIds('v_', Date.parse(ctx.now));
    const maxAttempts = count * 20 + 1000;
    const batch = ctx.shouldYield ? YIELD_BATCH : BULK_BATCH;
    let inserted = 0;
    for (let attempt = 0; inserted < count; ) {
      if (attempt >= maxAttempts) {
        throw new JobFailure(
          `No free codes left for this code config after ${job.cursor} of ${job.total} vouchers were generated.`,
        );
      }
      // An API write waits for the lock: the portion ends with the codes inserted so far.
      if (attempt > 0 && ctx.shouldYield?.()) break;
      const size = Math.min(batch, count - inserted, maxAttempts - attempt);
      const rows = Array.from({ length: size }, (_, i): [string, string] => [
        take(drawn?.ids, attempt + i, nextId),
        take(drawn?.codes, attempt + i, nextCode),
      ]);
      attempt += size;
      for (const went of await insert(rows)) if (went) inserted++;
    }
    await addToVouchersCount(ctx.trx, campaignId, inserted);
    const cursor = job.cursor + inserted;
    return { cursor, done: inserted, failed: 0, finished: cursor >= job.total };
  },

  async finish(ctx, job) {
    generators.delete(job.id);
    const campaignId = job.payload.campaign_id;
    // Another generation for the same campaign may still be running: the campaign stays IN_PROGRESS.
    const stillGenerating = (await listOpenJobs<GeneratePayload>(ctx.trx, JobType.vouchersGenerate)).some(
      (open) => open.payload.campaign_id === campaignId && open.remaining > 0,
    );
    if (!stillGenerating && (await findLiveCampaign(ctx.trx, campaignId)))
      await setGenerationStatus(ctx.trx, campaignId, 'DONE', ctx.now);
    await ctx.seams?.fire(GENERATION_COMPLETED, ctx.trx, {
      campaignId,
      jobId: job.id,
      count: job.done_count,
      at: ctx.now,
    });
    return { message: `Generated ${job.done_count} vouchers.`, done_count: job.done_count };
  },

  async fail(ctx, job) {
    generators.delete(job.id);
    const campaignId = job.payload.campaign_id;
    if (await findLiveCampaign(ctx.trx, campaignId)) await setGenerationStatus(ctx.trx, campaignId, 'FAILED', ctx.now);
    await ctx.seams?.fire(GENERATION_FAILED, ctx.trx, {
      campaignId,
      jobId: job.id,
      count: job.done_count,
      at: ctx.now,
    });
  },
};
