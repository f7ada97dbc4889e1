import type { Deps } from '../app/deps.js';
import type { JobConnection, JobConnectionModule, JobConnectionSpec, Neighbours } from '../db/engine.js';
import { systemClock } from '../lib/clock.js';
import { Seams } from '../lib/seams.js';
import { failJob, preparePortion, runPortion, type PortionReport, type PortionTask } from './portions.service.js';
import type { JobStep } from './job-step.js';
import { subscribeSeams, type JobRegistry } from './registry.js';

/**
 * The one Piscina worker of every job type. A task names its registry (by the URL of the module
 * that exports it) and its job type; the worker imports the step once and runs one portion of
 * the job with it.
 */
export interface WorkerTask extends PortionTask {
  registry: string;
  type: string;
  /** The engine's side of the runner this thread opens its connection from (db/engine.ts JobHost). */
  connection: JobConnectionSpec;
  /** Instead of a portion: end the job FAILED with this reason, running the step's `fail`. */
  fail?: string;
  /** The connection's page cache for this portion, in MiB (the job type's; WORKER_CACHE_MB unless given). */
  cacheMb?: number;
}

export interface WorkerReport extends PortionReport {
  /** How long the portion held the database. */
  ms: number;
  /** How long the log's upkeep (SQLite: copying the WAL back) took, when this task did. */
  checkpointMs?: number;
  /** Who else wrote to the database between this connection's last portion and this one. */
  neighbours?: Neighbours;
}

/** The runner's idle upkeep: no job runs, and the engine's host asked for it (JobHost.idleUpkeep). */
export interface CheckpointTask {
  /** The runner's registry (a new connection makes its seam subscriptions). */
  registry: string;
  connection: JobConnectionSpec;
  plan: unknown;
}

type WorkerDeps = Pick<Deps, 'db' | 'engine' | 'clock' | 'seams'> & { connection: JobConnection };

/** The worker connection's page cache unless the job type asks for another (job-registry.ts cacheMb). */
const WORKER_CACHE_MB = 64;
const threadDeps = new Map<JobConnection, WorkerDeps>();
const hosts = new Map<string, Promise<JobConnectionModule>>();

/**
 * The worker thread's own connection (the engine's, db/engine.ts JobConnection), opened once,
 * with a larger page cache for bulk inserts into big indexes, and the API's seam subscriptions:
 * what a step's change fires (a customer's segments, their earning rules) runs in the portion's
 * transaction, as in a request's.
 */
async function workerDeps(spec: JobConnectionSpec, registry: JobRegistry): Promise<WorkerDeps> {
  let host = hosts.get(spec.home);
  if (!host) {
    host = import(spec.home) as Promise<JobConnectionModule>;
    hosts.set(spec.home, host);
  }
  const connection = (await host).openJobConnection(spec.spec);
  let deps = threadDeps.get(connection);
  if (!deps) {
    connection.useCacheMb(WORKER_CACHE_MB);
    deps = { db: connection.engine.db, engine: connection.engine, clock: systemClock, seams: new Seams(), connection };
    deps.seams.whenLoaded(subscribeSeams(deps as unknown as Deps, registry.subscriptions));
    threadDeps.set(connection, deps);
  }
  return deps;
}

const registries = new Map<string, Promise<JobRegistry>>();

/** The registry a task names: the `jobRegistry` export of the module at that URL, imported once per thread. */
function registryAt(home: string): Promise<JobRegistry> {
  let registry = registries.get(home);
  if (!registry) {
    registry = import(home).then((module: { jobRegistry?: JobRegistry }) => {
      if (!module.jobRegistry) throw new Error(`${home} exports no jobRegistry`);
      return module.jobRegistry;
    });
    registries.set(home, registry);
  }
  return registry;
}

/** The step of the task's job type, and the registry that names it. */
async function stepOf(task: {
  registry: string;
  type: string;
}): Promise<{ step: JobStep<unknown, unknown>; registry: JobRegistry }> {
  const registry = await registryAt(task.registry);
  const entry = registry.types[task.type];
  if (!entry) throw new Error(`${task.registry} has no job type ${task.type}`);
  return { step: (await entry.step()) as JobStep<unknown, unknown>, registry };
}

/**
 * Piscina task: one portion of the job (its pure work first), or its end when `fail` is set
 * (portions kept throwing), in turn with the runner's other threads (the engine's JobConnection).
 */
export default async function runWorkerTask(task: WorkerTask): Promise<WorkerReport> {
  const { step, registry } = await stepOf(task);
  const deps = await workerDeps(task.connection, registry);
  if (task.fail !== undefined) {
    const reason = task.fail;
    const { ms } = await deps.connection.inTurn(() => failJob(deps, task.jobId, reason, step, task.owner));
    return { state: 'failed', items: 0, ms };
  }
  deps.connection.useCacheMb(task.cacheMb ?? WORKER_CACHE_MB);
  const prepared = await preparePortion(deps, task, step);
  const { value, ms, neighbours, upkeepMs } = await deps.connection.portion((shouldYield) =>
    runPortion(deps, task, step, prepared, shouldYield),
  );
  const report: WorkerReport = { ...value, ms, neighbours };
  const checkpointMs = report.state === 'continue' ? upkeepMs : deps.connection.afterJob();
  return checkpointMs === undefined ? report : { ...report, checkpointMs: Math.round(checkpointMs) };
}

/** Piscina task `checkpoint`: the runner's idle upkeep, in turn with the other threads. */
export async function checkpoint(task: CheckpointTask): Promise<WorkerReport> {
  const deps = await workerDeps(task.connection, await registryAt(task.registry));
  const ms = await deps.connection.idleUpkeep(task.plan);
  return { state: 'finished', items: 0, ms: 0, ...(ms === undefined ? {} : { checkpointMs: Math.round(ms) }) };
}

/**
 * Piscina task `warm`: loads a job type's step (and with it this thread's module graph) before
 * its job can run, while the caller still prepares it (`promo import` staging its file).
 */
export async function warm(task: { registry: string; type: string; connection: JobConnectionSpec }): Promise<void> {
  const { registry } = await stepOf(task);
  await workerDeps(task.connection, registry);
}
