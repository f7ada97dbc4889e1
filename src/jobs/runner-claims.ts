import { claimJob, failAbandonedStaging } from './leases.service.js';
import { isOwnerDead } from './lease-owner.js';
import { TARGET_PORTION_MS } from './portion-size.js';
import { failJob } from './portions.service.js';
import type { RunnerState } from './runner-state.js';

/** Claims open jobs up to maxJobs; fails jobs of a type this build cannot run. */
export async function claimNew(r: RunnerState): Promise<void> {
  if (Date.now() - r.lastStagingCheck > 5_000) {
    r.lastStagingCheck = Date.now();
    await failAbandonedStaging(r.deps, isOwnerDead);
  }
  while (r.held.size < (r.options.maxJobs ?? 16)) {
    const job = await claimJob(r.deps, {
      owner: r.owner,
      leaseMs: r.leaseMs,
      only: r.options.only,
      exclude: [...r.held.keys()],
      isOwnerDead,
    });
    if (!job) return;
    const entry = r.options.registry.types[job.type];
    if (!entry) {
      await failJob(r.deps, job.id, `This promo cannot run ${job.type} jobs.`, undefined, r.owner);
      continue;
    }
    r.held.set(job.id, {
      id: job.id,
      type: job.type,
      entry,
      portion: entry.firstPortion,
      target: TARGET_PORTION_MS,
      inFlight: 0,
      errors: 0,
      retryAt: 0,
      renewedAt: Date.now(),
    });
    r.rotation.push(job.id);
    r.deps.log.info('job started', { job_id: job.id, type: job.type });
  }
}
