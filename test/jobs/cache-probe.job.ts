import type { JobStep } from '../../src/jobs/job-step.js';
import { itemPortion } from '../../src/jobs/portions.service.js';

/**
 * A test-only step for any job of stored items: its portions read and drop the items without
 * storing anything, and its result's message is the worker connection's `cache_size` (pages,
 * or KiB when negative) as the job's last portion saw it. Tests put it in a registry of their own.
 */
export const cacheProbeStep: JobStep<unknown> = {
  run: (ctx, job, maxItems) => itemPortion(ctx, job, maxItems, async () => []),
  async finish(ctx, job) {
    return { message: String(ctx.sqlite.pragma('cache_size', { simple: true })), done_count: job.done_count, failed_count: job.failed_count };
  },
};
