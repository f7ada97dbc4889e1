import { sqliteEngineOf } from '../../src/db/sqlite/engine.js';
import type { JobStep } from '../../src/jobs/job-step.js';
import { itemPortion } from '../../src/jobs/portions.service.js';
import type { JobRegistry } from '../../src/jobs/registry.js';
import { JobType } from '../../src/lib/enums.js';
import { jobRegistry as appRegistry } from '../../src/root/job-registry.js';

/**
 * A test-only step for any job of stored items: its portions read and drop the items without
 * storing anything, and its result's message is the worker connection's `cache_size` (pages,
 * or KiB when negative) as the job's last portion saw it. Tests put it in a registry of their own.
 */
export const cacheProbeStep: JobStep<unknown> = {
  run: (ctx, job, maxItems) => itemPortion(ctx, job, maxItems, async () => []),
  async finish(ctx, job) {
    return {
      message: String(sqliteEngineOf(ctx.engine).sqlite.pragma('cache_size', { simple: true })),
      done_count: job.done_count,
      failed_count: job.failed_count,
    };
  },
};

/** The app's registry with both imports probing; worker threads find it at this module. */
export const jobRegistry: JobRegistry = {
  ...appRegistry,
  home: import.meta.url,
  types: {
    ...appRegistry.types,
    [JobType.ordersImport]: { step: async () => cacheProbeStep, firstPortion: 10, failureKey: 'source_id', cacheMb: 8 },
    [JobType.vouchersImport]: { step: async () => cacheProbeStep, firstPortion: 10, failureKey: 'code' },
  },
};
