import { Piscina } from 'piscina';
import type { Deps } from '../app/deps.js';
import { jobEvents } from '../modules/jobs/jobs.events.js';
import { claimJob, failAbandonedStaging, releaseLeases, renewLeases } from '../modules/jobs/leases.service.js';
import { failJob } from '../modules/jobs/portions.service.js';
import { isOwnerDead, newLeaseOwner } from './lease-owner.js';
import { jobRegistry, nextPortionSize } from './registry.js';
import type { WorkerReport, WorkerTask } from './worker-runtime.js';
import { createWriteGate, type GateOptions } from './write-gate.js';

export interface RunnerOptions {
  /** Worker threads (and portions in flight at once). */
  workers: number;
  /** How long a lease lasts without a heartbeat. */
  leaseMs?: number;
  /** How often the runner looks for new jobs when nobody tells it. */
  pollMs?: number;
  /** Run only these jobs (a command line running its own). */
  only?: string[];
  /** Jobs held at once; they advance round-robin, one portion each. */
  maxJobs?: number;
  gateOptions?: GateOptions;
  onReport?: (jobId: string, report: WorkerReport) => void;
}

export interface JobRunner {
  owner: string;
  wake(): void;
  /** Stops claiming, waits for portions in flight, releases every lease, ends the threads. */
  stop(): Promise<void>;
}

interface HeldJob {
  id: string;
  type: string;
  portion: number;
  inFlight: boolean;
  errors: number;
  retryAt: number;
}

const MAX_ERRORS = 3;

/** The lease-based job runner of one process. */
export function startJobRunner(deps: Deps, options: RunnerOptions): JobRunner {
  const owner = newLeaseOwner();
  const leaseMs = options.leaseMs ?? 15_000;
  const held = new Map<string, HeldJob>();
  let rotation: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const gate = createWriteGate();
  let pool: Piscina | undefined;
  let stopping = false;
  let ticking = false;
  let again = false;
  let lastStagingCheck = 0;

  const getPool = (): Piscina =>
    (pool ??= new Piscina({ maxThreads: options.workers, minThreads: 0, idleTimeout: 30_000, execArgv: ['--import', import.meta.resolve('tsx')] }));

  const drop = (id: string) => {
    held.delete(id);
    rotation = rotation.filter((x) => x !== id);
  };

  async function claimNew(): Promise<void> {
    const now = Date.now();
    if (now - lastStagingCheck > 5_000) {
      lastStagingCheck = now;
      await failAbandonedStaging(deps, isOwnerDead);
    }
    while (held.size < (options.maxJobs ?? 16)) {
      const job = await claimJob(deps, { owner, leaseMs, only: options.only, exclude: [...held.keys()], isOwnerDead });
      if (!job) return;
      const entry = jobRegistry[job.type];
      if (!entry) {
        await failJob(deps, job.id, `This promo cannot run ${job.type} jobs.`, undefined, owner);
        continue;
      }
      held.set(job.id, { id: job.id, type: job.type, portion: entry.firstPortion, inFlight: false, errors: 0, retryAt: 0 });
      rotation.push(job.id);
    }
  }

  function dispatch(): void {
    const now = Date.now();
    for (const id of [...rotation]) {
      if (inFlight.size >= options.workers || stopping) return;
      const job = held.get(id);
      if (!job || job.inFlight || job.retryAt > now) continue;
      rotation = [...rotation.filter((x) => x !== id), id];
      start(job);
    }
  }

  function start(job: HeldJob): void {
    job.inFlight = true;
    const task: WorkerTask = { dbFile: deps.dbFile, jobId: job.id, owner, maxItems: job.portion, gate, gateOptions: options.gateOptions };
    const run = (getPool().run(task, { filename: (jobRegistry[job.type] as { worker: string }).worker }) as Promise<WorkerReport>)
      .then((report) => onReport(job, report), (error: unknown) => onError(job, error))
      .finally(() => {
        job.inFlight = false;
        inFlight.delete(run);
        if (!stopping) wake();
      });
    inFlight.add(run);
  }

  function onReport(job: HeldJob, report: WorkerReport): void {
    job.errors = 0;
    job.portion = nextPortionSize(job.portion, report.items, report.ms);
    if (report.state !== 'continue') drop(job.id);
    options.onReport?.(job.id, report);
  }

  async function onError(job: HeldJob, error: unknown): Promise<void> {
    job.errors++;
    deps.log.error(`job ${job.id} (${job.type}): portion failed (attempt ${job.errors})`, error);
    if (job.errors < MAX_ERRORS) {
      job.retryAt = Date.now() + 500 * job.errors;
      return;
    }
    drop(job.id);
    const message = error instanceof Error ? error.message : String(error);
    await failJob(deps, job.id, `The job stopped after an unexpected error: ${message}`, undefined, owner);
  }

  async function tick(): Promise<void> {
    if (stopping) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    try {
      await claimNew();
      dispatch();
    } catch (error) {
      deps.log.error('job runner: tick failed', error);
    } finally {
      ticking = false;
    }
    if (again) {
      again = false;
      wake();
    }
  }

  let scheduled: NodeJS.Immediate | undefined;
  function wake(): void {
    if (stopping || scheduled) return;
    scheduled = setImmediate(() => {
      scheduled = undefined;
      void tick();
    });
  }

  async function heartbeat(): Promise<void> {
    if (held.size === 0 || stopping) return;
    try {
      const kept = new Set(await renewLeases(deps, owner, [...held.keys()], leaseMs));
      for (const id of [...held.keys()]) if (!kept.has(id) && !held.get(id)?.inFlight) drop(id);
    } catch (error) {
      deps.log.error('job runner: heartbeat failed', error);
    }
  }

  const poll = setInterval(wake, options.pollMs ?? 250);
  const beat = setInterval(() => void heartbeat(), Math.max(100, Math.floor(leaseMs / 3)));
  poll.unref();
  beat.unref();
  jobEvents.on('enqueued', wake);
  wake();

  return {
    owner,
    wake,
    async stop() {
      stopping = true;
      clearInterval(poll);
      clearInterval(beat);
      if (scheduled) clearImmediate(scheduled);
      jobEvents.off('enqueued', wake);
      while (ticking) await new Promise((r) => setTimeout(r, 5));
      await Promise.allSettled([...inFlight]);
      await releaseLeases(deps, owner);
      await pool?.destroy();
    },
  };
}
