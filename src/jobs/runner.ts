import type { Deps } from '../app/deps.js';
import type { JobHost } from '../db/engine.js';
import type { JobRunner, RunnerOptions } from './runner-options.js';
import { jobEvents } from './jobs.events.js';
import { releaseLeases } from './leases.service.js';
import { failJob } from './portions.service.js';
import { newLeaseOwner } from './lease-owner.js';
import { HAND_OFF_MS, nextPortionSize, nextTarget, TARGET_PORTION_MS } from './portion-size.js';
import { startSweeps, type SweepLoop } from './sweeps.js';
import type { CheckpointTask, WorkerReport, WorkerTask } from './worker.js';
import { claimNew } from './runner-claims.js';
import { drop, heartbeat, poolOf, type HeldJob, type RunnerState } from './runner-state.js';

export type { JobRunner, RunnerOptions } from './runner-options.js';

const MAX_ERRORS = 3;

/**
 * Gives the next jobs in turn one portion each, as long as worker threads are free; then a second
 * one to jobs whose type overlaps them (JobTypeEntry.overlap), on a thread still free. Not where
 * writers run side by side (PostgreSQL): the second portion would wait for the first's lock on
 * the job's row inside its transaction (runPortion), and that wait, counted as its time, would
 * shrink every portion to the smallest (and overlap's gain, the WAL copy, is SQLite's).
 */
function dispatch(r: RunnerState): void {
  const now = Date.now();
  for (const most of r.deps.engine.rowLocks ? [0] : [0, 1]) {
    for (const id of [...r.rotation]) {
      if (r.inFlight.size >= r.options.workers || r.stopping) return;
      const job = r.held.get(id);
      if (!job || job.inFlight > most || job.retryAt > now || (most > 0 && (!job.entry.overlap || job.errors > 0)))
        continue;
      r.rotation = [...r.rotation.filter((x) => x !== id), id];
      start(r, job);
    }
  }
}

const taskOf = (r: RunnerState, job: HeldJob): WorkerTask => ({
  jobId: job.id,
  owner: r.owner,
  maxItems: job.portion,
  leaseMs: r.leaseMs,
  registry: r.options.registry.home,
  type: job.type,
  connection: r.host.connection,
  failureKey: job.entry.failureKey,
  failureList: job.entry.failureList,
  failureRow: job.entry.failureRow,
  cacheMb: job.entry.cacheMb,
});

function start(r: RunnerState, job: HeldJob): void {
  job.inFlight++;
  const run = (poolOf(r).run(taskOf(r, job)) as Promise<WorkerReport>)
    .then(
      (report) => onReport(r, job, report),
      (error: unknown) => onError(r, job, error),
    )
    .catch((error: unknown) => r.deps.log.error('job portion not recorded', error, { job_id: job.id, type: job.type }))
    .finally(() => {
      job.inFlight--;
      r.inFlight.delete(run);
      if (!r.stopping) wake(r);
    });
  r.inFlight.add(run);
}

/**
 * The job's next target (jobs/portion-size.ts): short while others write beside it, growing while
 * nobody does. Two signals: this process's API commits, and the worker connection's data_version
 * (any other connection's commits, other processes' included).
 */
function resize(r: RunnerState, job: HeldJob, report: WorkerReport): void {
  const commits = r.host.apiCommits();
  const apiWrote = commits !== r.apiCommits;
  r.apiCommits = commits;
  const target = nextTarget(
    job.target,
    apiWrote ? 'writing' : (report.neighbours ?? 'unknown'),
    r.host.quietPortionMs ?? r.options.quietPortionMs ?? TARGET_PORTION_MS,
  );
  job.portion = nextPortionSize(job.portion, report.items, report.ms, target, job.target);
  job.target = target;
}

function onReport(r: RunnerState, job: HeldJob, report: WorkerReport): void {
  if (report.checkpointMs !== undefined) r.options.onCheckpoint?.(report.checkpointMs);
  // An overlapping portion that found the job ended by the other one (or dropped since): nothing to do.
  if (r.held.get(job.id) !== job || (report.state === 'lost' && job.inFlight > 1)) return;
  job.errors = 0;
  job.renewedAt = Date.now();
  resize(r, job, report);
  r.deps.log.debug('job portion', {
    job_id: job.id,
    type: job.type,
    items: report.items,
    ms: report.ms,
    neighbours: report.neighbours,
    target_ms: job.target,
  });
  if (report.state !== 'continue') {
    drop(r, job.id);
    r.deps.log.info('job ended', {
      job_id: job.id,
      type: job.type,
      state: report.state,
      checkpoint_ms: report.checkpointMs,
    });
  }
  r.options.onReport?.(job.id, report);
}

/**
 * While no job runs, a worker thread runs the log's upkeep when the engine's host asks for it
 * (SQLite: copies the WAL back, which the API's own connection no longer does:
 * db/sqlite/wal-checkpoints.ts).
 */
function checkpointIfIdle(r: RunnerState): void {
  if (r.held.size > 0 || r.inFlight.size > 0 || r.stopping) return;
  const plan = r.host.idleUpkeep();
  if (plan === undefined) return;
  const task: CheckpointTask = { registry: r.options.registry.home, connection: r.host.connection, plan };
  runBesideJobs(r, 'checkpoint', task, (report: WorkerReport) => {
    if (report.checkpointMs !== undefined) r.options.onCheckpoint?.(report.checkpointMs);
  });
}

/**
 * A worker task that is not a job's portion (an idle checkpoint, a warm-up): it holds a
 * thread like a portion (counted in flight) and wakes the runner when done. stop awaits a
 * checkpoint; a warm-up only loads modules, so stop ends its thread instead (a refused
 * `promo import` exits without waiting for a thread it will never use).
 */
function runBesideJobs<T>(
  r: RunnerState,
  name: 'checkpoint' | 'warm',
  task: unknown,
  then: (report: T) => void = () => {},
): void {
  const run = (poolOf(r).run(task, { name }) as Promise<T>)
    .then(then)
    .catch((error: unknown) => {
      if (!(name === 'warm' && r.stopping)) r.deps.log.error(`worker task ${name} failed`, error);
    })
    .finally(() => {
      r.inFlight.delete(run);
      r.warmUps.delete(run);
      if (!r.stopping) wake(r);
    });
  r.inFlight.add(run);
  if (name === 'warm') r.warmUps.add(run);
}

/**
 * A portion that threw (not a JobFailure): retried twice with a pause, then the job ends
 * FAILED through a worker that runs its step's `fail` (a generation's campaign must not stay
 * IN_PROGRESS). If even that throws, the job ends FAILED without the step's clean-up.
 */
async function onError(r: RunnerState, job: HeldJob, error: unknown): Promise<void> {
  job.errors++;
  r.deps.log.error('job portion failed', error, { job_id: job.id, type: job.type, attempt: job.errors });
  if (job.errors < MAX_ERRORS) {
    job.retryAt = Date.now() + 500 * job.errors;
    return;
  }
  drop(r, job.id);
  const reason = `The job stopped after an unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  try {
    await poolOf(r).run({ ...taskOf(r, job), fail: reason } satisfies WorkerTask);
  } catch (cleanup) {
    r.deps.log.error("job step's fail threw", cleanup, { job_id: job.id, type: job.type });
    await failJob(r.deps, job.id, reason, undefined, r.owner);
  }
}

async function tick(r: RunnerState): Promise<void> {
  if (r.stopping) return;
  if (r.ticking) {
    r.again = true;
    return;
  }
  r.ticking = true;
  try {
    await claimNew(r);
    dispatch(r);
    checkpointIfIdle(r);
  } catch (error) {
    r.deps.log.error('job runner tick failed', error);
  } finally {
    r.ticking = false;
  }
  if (r.again) {
    r.again = false;
    wake(r);
  }
}

function wake(r: RunnerState): void {
  if (r.stopping || r.scheduled) return;
  r.scheduled = setImmediate(() => {
    r.scheduled = undefined;
    void tick(r);
  });
}

function jobHostOf(deps: Deps, options: RunnerOptions): JobHost {
  if (!deps.engine.jobHost) throw new Error('This database connection runs no job runner (a job worker thread)');
  return deps.engine.jobHost({ ...options, handOffMs: options.handOffMs ?? HAND_OFF_MS });
}

/**
 * The lease-based job runner of one process: claims open jobs (free, expired, or left by a
 * dead process), and sends them round-robin, one portion at a time, to Piscina worker threads.
 */
export function startJobRunner(deps: Deps, options: RunnerOptions): JobRunner {
  const r: RunnerState = {
    deps,
    options,
    owner: newLeaseOwner(),
    leaseMs: options.leaseMs ?? 15_000,
    held: new Map(),
    rotation: [],
    inFlight: new Set(),
    warmUps: new Set(),
    host: jobHostOf(deps, options),
    stopping: false,
    ticking: false,
    again: false,
    lastStagingCheck: 0,
    apiCommits: 0,
  };
  const onEnqueued = () => wake(r);
  const poll = setInterval(onEnqueued, options.pollMs ?? 250);
  const beat = setInterval(() => void heartbeat(r), Math.max(100, Math.floor(r.leaseMs / 3)));
  poll.unref();
  beat.unref();
  jobEvents.on('enqueued', onEnqueued);
  wake(r);
  const sweeps: SweepLoop | undefined = options.sweeps && startSweeps(deps, options.sweeps, options.sweepIntervalMs);
  return {
    owner: r.owner,
    wake: onEnqueued,
    sweepNow: async () => sweeps?.runNow(),
    copyWalBack: () => r.host.upkeepHere(),
    warmUp(type) {
      if (options.registry.types[type])
        runBesideJobs(r, 'warm', { registry: options.registry.home, type, connection: r.host.connection });
    },
    async stop() {
      r.stopping = true;
      await sweeps?.stop();
      clearInterval(poll);
      clearInterval(beat);
      if (r.scheduled) clearImmediate(r.scheduled);
      jobEvents.off('enqueued', onEnqueued);
      while (r.ticking) await new Promise((resolve) => setTimeout(resolve, 5));
      await Promise.allSettled([...r.inFlight].filter((run) => !r.warmUps.has(run)));
      await releaseLeases(deps, r.owner);
      await r.pool?.destroy();
    },
  };
}
