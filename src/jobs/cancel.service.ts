import type { Deps } from '../app/deps.js';
import type { JobRegistry } from './registry.js';
import { isoNow } from '../lib/clock.js';
import { AppError, notFound } from '../lib/errors.js';
import { runJobToEnd } from './follow.js';
import type { JobView } from './jobs.presenter.js';
import * as repo from './jobs.repository.js';
import { canceledReason, endJobFailed } from './portions.service.js';

const isEnded = (status: string): boolean => status === 'DONE' || status === 'FAILED';

/**
 * Marks an open job canceled: 404 for an unknown id, 409 job_already_ended for a job that
 * ended. The lease holder's next portion ends it. A job still being staged (its file still
 * being read) has no runner yet: it ends here, and its writer's next batch is refused.
 */
export async function requestCancel(deps: Pick<Deps, 'db' | 'engine' | 'clock'>, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.findJob(trx, id);
    if (!row) throw notFound('async_action', id);
    if (isEnded(row.status)) throw new AppError('job_already_ended', `Async action ${id} already ended ${row.status}`);
    const now = isoNow(deps.clock);
    await repo.markCanceled(trx, id, now);
    if (row.sealed === 0) await endJobFailed({ trx, engine: deps.engine, now }, row, canceledReason(row));
  });
}

/**
 * `promo jobs cancel` and the `c` key of `promo jobs`: marks the job, then follows it to its
 * end. A server (or command) holding its lease ends it at its next portion, running the
 * step's `fail`; when nobody holds it, this process claims it and does the same. A job whose
 * last portion committed before the mark ends DONE: that is refused as already ended.
 */
export async function cancelJob(deps: Deps, registry: JobRegistry, id: string): Promise<JobView> {
  await requestCancel(deps, id);
  const job = await runJobToEnd(deps, registry, id);
  if (job.status === 'DONE')
    throw new AppError('job_already_ended', `Async action ${id} ended DONE before the cancel took effect`);
  return job;
}
