import type { Deps } from '../app/deps.js';
import type { FailureList } from './registry.js';
import { isoNow } from '../lib/clock.js';
import { resultWithFailures } from './failures.service.js';
import {
  JobFailure,
  RedoPortion,
  type ItemFailure,
  type JobStep,
  type PortionContext,
  type PortionJob,
  type PortionOutcome,
} from './job-step.js';
import * as items from './job-items.repository.js';
import * as repo from './jobs.repository.js';

type WorkerDeps = Pick<Deps, 'db' | 'engine' | 'clock'> & Partial<Pick<Deps, 'seams'>>;

export interface PortionTask {
  jobId: string;
  owner: string;
  maxItems: number;
  /** Each portion renews the lease for this long (the runner's heartbeat covers idle jobs). */
  leaseMs?: number;
  /** The registry's failureKey of the job's type: its result lists its first failures. */
  failureKey?: string;
  /** The registry's failureList of the job's type. */
  failureList?: FailureList;
  /** The registry's failureRow: failures name their CSV row too. */
  failureRow?: boolean;
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

/** Why a canceled job ended, in its units of progress (vouchers generated, items read...). */
export const canceledReason = (row: Pick<repo.JobRow, 'sealed' | 'cursor' | 'total'>): string =>
  row.sealed === 0
    ? 'Canceled by the operator before all of its items were read.'
    : `Canceled by the operator after ${row.cursor} of ${row.total} items.`;

/**
 * One portion of a job, in ONE transaction: read the job under this owner's lease, let the
 * step do its work, record failures, advance the cursor from exactly the value read, and end
 * the job when the step says it is finished. A lost lease rolls everything back; a
 * JobFailure rolls the portion back and ends the job FAILED; a job an operator canceled ends
 * FAILED in this transaction, without a portion of work. A step's RedoPortion rolls the
 * portion back and runs it once more with `itemSavepoints`.
 */
export async function runPortion<P, R>(
  deps: WorkerDeps,
  task: PortionTask,
  step: JobStep<P, R>,
  prepared?: R,
  shouldYield?: PortionContext['shouldYield'],
): Promise<PortionReport> {
  const once = (itemSavepoints: boolean) =>
    deps.db.transaction().execute(async (trx) => {
      // Where writers run side by side (PostgreSQL), two portions of one job take turns here, as
      // SQLite's write gate makes them: the second reads the cursor the first moved, instead of
      // doing its work from the same cursor and losing it at advanceJob. (The runner sends a
      // job's portions one at a time there: jobs/runner.ts dispatch.)
      const row = await repo.findLeasedJob(trx, task.jobId, task.owner, deps.engine.rowLocks);
      if (!row) throw new LeaseLost();
      const ctx: PortionContext = {
        trx,
        engine: deps.engine,
        now: isoNow(deps.clock),
        shouldYield,
        itemSavepoints,
        seams: deps.seams,
      };
      if (row.canceled_at !== null) {
        await endJobFailed(ctx, row, canceledReason(row), step, task.owner);
        return { state: 'failed', items: 0 } as PortionReport;
      }
      return advance(ctx, task, step, toPortionJob<P>(row), prepared, deps.clock.now().getTime());
    });
  try {
    try {
      return await once(false);
    } catch (error) {
      if (!(error instanceof RedoPortion)) throw error;
      return await once(true);
    }
  } catch (error) {
    if (error instanceof LeaseLost) return { state: 'lost', items: 0 };
    if (error instanceof JobFailure) {
      await failJob(deps, task.jobId, error.message, step, task.owner);
      return { state: 'failed', items: 0 };
    }
    throw error;
  }
}

/** The step's portion, its failures and the cursor's move, inside runPortion's transaction. */
async function advance<P, R>(
  ctx: PortionContext,
  task: PortionTask,
  step: JobStep<P, R>,
  job: PortionJob<P>,
  prepared: R | undefined,
  nowMs: number,
): Promise<PortionReport> {
  const outcome = await step.run(ctx, job, task.maxItems, prepared);
  await items.insertFailures(
    ctx.trx,
    (outcome.failures ?? []).map((f) => ({ action_id: job.id, ...f, error_key: f.error_key ?? null })),
  );
  const advanced = await repo.advanceJob(ctx.trx, {
    id: job.id,
    owner: task.owner,
    fromCursor: job.cursor,
    toCursor: outcome.cursor,
    done: outcome.done,
    failed: outcome.failed,
    now: ctx.now,
    leaseUntil: nowMs + (task.leaseMs ?? DEFAULT_LEASE_MS),
  });
  if (!advanced) throw new LeaseLost();
  if (outcome.finished) {
    const ended = {
      ...job,
      cursor: outcome.cursor,
      done_count: job.done_count + outcome.done,
      failed_count: job.failed_count + outcome.failed,
    };
    await finish(ctx, step, ended, task);
  }
  return { state: outcome.finished ? 'finished' : 'continue', items: outcome.cursor - job.cursor };
}

async function finish<P, R>(
  ctx: PortionContext,
  step: JobStep<P, R>,
  job: PortionJob<P>,
  task: PortionTask,
): Promise<void> {
  const result = await resultWithFailures(ctx.trx, job, await step.finish(ctx, job), task);
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
 * portion re-reads it under the lease). Undefined when the step has none, or the job is gone
 * or canceled (its portion will only end it).
 */
export async function preparePortion<P, R>(
  deps: Pick<Deps, 'db'>,
  task: PortionTask,
  step: JobStep<P, R>,
): Promise<R | undefined> {
  if (!step.prepare) return undefined;
  const row = await repo.findJob(deps.db, task.jobId);
  return row && row.canceled_at === null ? step.prepare(toPortionJob<P>(row), task.maxItems) : undefined;
}

/** Ends the open job FAILED in the caller's transaction, after the step's clean-up. */
export async function endJobFailed<P, R>(
  ctx: PortionContext,
  row: repo.JobRow,
  reason: string,
  step?: JobStep<P, R>,
  owner?: string,
): Promise<boolean> {
  if (row.status === 'DONE' || row.status === 'FAILED') return false;
  const job = toPortionJob<P>(row);
  if (step?.fail) await step.fail(ctx, job, reason);
  const result = await resultWithFailures(ctx.trx, job, {
    message: reason,
    done_count: row.done_count,
    failed_count: row.failed_count,
  });
  return repo.endJob(ctx.trx, {
    id: row.id,
    status: 'FAILED',
    operationStatus: 'FAILED',
    result: JSON.stringify(result),
    now: ctx.now,
    owner,
  });
}

/**
 * Ends a job FAILED with the reason as its result message, and lets the step clean up. With
 * an owner, only if that owner holds the job.
 */
export async function failJob<P, R>(
  deps: WorkerDeps,
  id: string,
  reason: string,
  step?: JobStep<P, R>,
  owner?: string,
): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findJob(trx, id);
    if (!row || (owner !== undefined && row.lease_owner !== owner)) return false;
    const ctx = { trx, engine: deps.engine, now: isoNow(deps.clock), seams: deps.seams };
    return endJobFailed(ctx, row, reason, step, owner);
  });
}

/** Drops the stored items before `position` (processed), inside a portion. */
async function dropJobItems(ctx: PortionContext, id: string, position: number): Promise<void> {
  await items.deleteItemsBefore(ctx.trx, id, position);
}

/** The next stored items from `position`, inside a portion. */
async function readJobItems(ctx: PortionContext, id: string, position: number, limit: number) {
  return items.listItems(ctx.trx, id, position, limit);
}

/**
 * One portion of a job of stored items (imports, bulk updates): the next `maxItems` items,
 * handed to `apply` (which stores them and says why each bad one failed), then dropped; the
 * cursor moves past them.
 */
export async function itemPortion(
  ctx: PortionContext,
  job: PortionJob<unknown>,
  maxItems: number,
  apply: (items: Awaited<ReturnType<typeof readJobItems>>) => Promise<ItemFailure[]>,
): Promise<PortionOutcome & { failures: ItemFailure[] }> {
  const stored = await readJobItems(ctx, job.id, job.cursor, maxItems);
  const failures = await apply(stored);
  const cursor = stored.length > 0 ? (stored.at(-1)?.position ?? 0) + 1 : job.total;
  await dropJobItems(ctx, job.id, cursor);
  return {
    cursor,
    done: stored.length - failures.length,
    failed: failures.length,
    failures,
    finished: cursor >= job.total,
  };
}
