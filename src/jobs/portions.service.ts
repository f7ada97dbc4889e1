import type { Deps } from '../app/deps.js';
import { isoNow } from '../lib/clock.js';
import { JobFailure, type JobStep, type PortionContext, type PortionJob } from './job-step.js';
import * as repo from './jobs.repository.js';

type WorkerDeps = Pick<Deps, 'db' | 'sqlite' | 'clock'>;

export interface PortionTask {
  jobId: string;
  owner: string;
  maxItems: number;
  /** Each portion renews the lease for this long (the runner's heartbeat covers idle jobs). */
  leaseMs?: number;
}

const DEFAULT_LEASE_MS = 15_000;

export interface PortionReport {
  /** continue: more to do; finished: ended DONE; failed: ended FAILED; lost: the lease is gone. */
  state: 'continue' | 'finished' | 'failed' | 'lost';
  /** How far the cursor moved: the portion's size in the step's units. */
  items: number;
}

class LeaseLost extends Error {}

const toPortionJob = <P>(row: repo.JobRow): PortionJob<P> => ({
  id: row.id,
  type: row.type,
  payload: JSON.parse(row.payload) as P,
  total: row.total,
  cursor: row.cursor,
  done_count: row.done_count,
  failed_count: row.failed_count,
});

/**
 * One portion of a job, in ONE transaction: read the job under this owner's lease, let the
 * step do its work, record failures, advance the cursor from exactly the value read, and end
 * the job when the step says it is finished. A lost lease rolls everything back; a
 * JobFailure rolls the portion back and ends the job FAILED.
 */
export async function runPortion<P, R>(deps: WorkerDeps, task: PortionTask, step: JobStep<P, R>, prepared?: R): Promise<PortionReport> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const row = await repo.findLeasedJob(trx, task.jobId, task.owner);
      if (!row) throw new LeaseLost();
      const now = isoNow(deps.clock);
      const ctx: PortionContext = { trx, sqlite: deps.sqlite, now };
      const job = toPortionJob<P>(row);
      const outcome = await step.run(ctx, job, task.maxItems, prepared);
      const failures = (outcome.failures ?? []).map((f) => ({ action_id: job.id, ...f }));
      await repo.insertFailures(trx, failures);
      const advanced = await repo.advanceJob(trx, {
        id: job.id, owner: task.owner, fromCursor: job.cursor, toCursor: outcome.cursor, done: outcome.done, failed: outcome.failed, now,
        leaseUntil: deps.clock.now().getTime() + (task.leaseMs ?? DEFAULT_LEASE_MS),
      });
      if (!advanced) throw new LeaseLost();
      if (outcome.finished) await finish(ctx, step, { ...job, cursor: outcome.cursor, done_count: job.done_count + outcome.done, failed_count: job.failed_count + outcome.failed });
      return { state: outcome.finished ? 'finished' : 'continue', items: outcome.cursor - job.cursor } as PortionReport;
    });
  } catch (error) {
    if (error instanceof LeaseLost) return { state: 'lost', items: 0 };
    if (error instanceof JobFailure) {
      await failJob(deps, task.jobId, error.message, step, task.owner);
      return { state: 'failed', items: 0 };
    }
    throw error;
  }
}

async function finish<P, R>(ctx: PortionContext, step: JobStep<P, R>, job: PortionJob<P>): Promise<void> {
  const result = await step.finish(ctx, job);
  await repo.endJob(ctx.trx, {
    id: job.id,
    status: 'DONE',
    operationStatus: job.failed_count === 0 ? 'SUCCESS' : 'FAILED',
    result: JSON.stringify(result),
    now: ctx.now,
  });
}

/**
 * The step's work done before the write lock: from the job as it stands (a plain read; the
 * portion re-reads it under the lease). Undefined when the step has none or the job is gone.
 */
export async function preparePortion<P, R>(deps: Pick<Deps, 'db'>, task: PortionTask, step: JobStep<P, R>): Promise<R | undefined> {
  if (!step.prepare) return undefined;
  const row = await repo.findJob(deps.db, task.jobId);
  return row ? step.prepare(toPortionJob<P>(row), task.maxItems) : undefined;
}

/** Ends a job FAILED with the reason as its result message (and lets the step clean up). */
export async function failJob<P, R>(deps: WorkerDeps, id: string, reason: string, step?: JobStep<P, R>, owner?: string): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findJob(trx, id);
    if (!row || (owner !== undefined && row.lease_owner !== owner)) return false;
    const now = isoNow(deps.clock);
    const job = toPortionJob<P>(row);
    if (step?.fail) await step.fail({ trx, sqlite: deps.sqlite, now }, job, reason);
    const result = JSON.stringify({ message: reason, done_count: row.done_count, failed_count: row.failed_count });
    return repo.endJob(trx, { id, status: 'FAILED', operationStatus: 'FAILED', result, now, owner });
  });
}

/** The failures recorded for a job, in item order (for import results). */
export async function listJobFailures(ctx: PortionContext, id: string): Promise<Array<{ key: string | null; reason: string }>> {
  return repo.listFailures(ctx.trx, id);
}

/** Drops the stored items before `position` (processed), inside a portion. */
export async function dropJobItems(ctx: PortionContext, id: string, position: number): Promise<void> {
  await repo.deleteItemsBefore(ctx.trx, id, position);
}

/** The next stored items from `position`, inside a portion. */
export async function readJobItems(ctx: PortionContext, id: string, position: number, limit: number) {
  return repo.listItems(ctx.trx, id, position, limit);
}
