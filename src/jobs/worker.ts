import type { Deps } from '../app/deps.js';
import { openSqliteEngine, type SqliteEngine } from '../db/sqlite/engine.js';
import { systemClock } from '../lib/clock.js';
import { Seams } from '../lib/seams.js';
import { failJob, preparePortion, runPortion, type PortionReport, type PortionTask } from './portions.service.js';
import type { JobStep } from './job-step.js';
import { subscribeSeams, type JobRegistry } from './registry.js';
import type { Neighbours } from './portion-size.js';
import { letWaitingWriteFirst, waitingMs } from '../db/sqlite/write-intent.js';
import type { WalReset } from '../db/sqlite/wal.js';
import { walKeeper, type WalKeeper } from '../db/sqlite/wal-checkpoints.js';
import {
  DEFAULT_GATE,
  gateWrites,
  markGateWrite,
  throughWriteGate,
  type GateOptions,
} from '../db/sqlite/write-gate.js';

/**
 * The one Piscina worker of every job type. A task names its registry (by the URL of the module
 * that exports it) and its job type; the worker imports the step once and runs one portion of
 * the job with it.
 */
export interface WorkerTask extends PortionTask {
  dbFile: string;
  registry: string;
  type: string;
  gate: SharedArrayBuffer;
  gateOptions?: GateOptions;
  /** Instead of a portion: end the job FAILED with this reason, running the step's `fail`. */
  fail?: string;
  /** Past this many bytes of WAL, the portion first copies it back (db/sqlite/wal-checkpoints.ts). */
  walCheckpointBytes: number;
  /** Copy the WAL back before each portion (PASSIVE); false when the runner's caller does (follow.ts). */
  copyWalBack: boolean;
  /** The connection's page cache for this portion, in MiB (the job type's; WORKER_CACHE_MB unless given). */
  cacheMb?: number;
  /** Where the API's writer of this process says it waits for the lock (db/sqlite/write-intent.ts). */
  writeIntent?: SharedArrayBuffer;
  /** How long that writer waits before a portion that can end early ends for it. */
  handOffMs: number;
}

export interface WorkerReport extends PortionReport {
  /** How long the portion held the database. */
  ms: number;
  /** How long copying the WAL back took, when this task did (db/sqlite/wal-checkpoints.ts). */
  checkpointMs?: number;
  /** Who else wrote to the file between this connection's last portion and this one. */
  neighbours?: Neighbours;
}

/** The runner's idle checkpoint: no job runs, the WAL is past its idle threshold. */
export interface CheckpointTask {
  dbFile: string;
  /** The runner's registry (a new connection makes its seam subscriptions). */
  registry: string;
  gate: SharedArrayBuffer;
  gateOptions?: GateOptions;
  /** RESTART while the API writes, else TRUNCATE (db/sqlite/wal-checkpoints.ts). */
  mode: WalReset;
}

/** What the connection saw at the end of its last portion: its data_version and the gate's write count. */
interface Seen {
  dataVersion: number;
  gateWrites: number;
}

type WorkerDeps = Pick<Deps, 'db' | 'clock' | 'seams'> & {
  engine: SqliteEngine;
  wal: WalKeeper;
  seen?: Seen;
  cacheMb: number;
};

/** The worker connection's page cache unless the job type asks for another (job-registry.ts cacheMb). */
const WORKER_CACHE_MB = 64;
const connections = new Map<string, WorkerDeps>();

/**
 * The worker thread's own connection to the file: synchronous=NORMAL (a job resumes from
 * what the database holds), a larger page cache for bulk inserts into big indexes, and no
 * checkpoint inside a commit: the worker copies the WAL back itself, between portions
 * (db/sqlite/wal-checkpoints.ts). Statement journals stay in memory (temp_store): an import's savepoint per
 * order journals the ~25 pages the order touches, more than the 64 KiB SQLite keeps in memory
 * before it spills them to a temp file, so each order wrote one (~40 us of 860 per order).
 * A journal holds at most the pages one statement or savepoint of a portion touches.
 */
function workerDeps(dbFile: string, gate: SharedArrayBuffer, registry: JobRegistry): WorkerDeps {
  let deps = connections.get(dbFile);
  if (!deps) {
    // Every connection keeps its statement journals in memory (db/sqlite/connect.ts openSqlite).
    const engine = openSqliteEngine(dbFile, { synchronous: 'NORMAL', autocheckpointBytes: 0 });
    engine.setCacheMb(WORKER_CACHE_MB);
    deps = {
      db: engine.db,
      engine,
      clock: systemClock,
      seams: new Seams(),
      wal: walKeeper(engine.sqlite, dbFile, gate),
      cacheMb: WORKER_CACHE_MB,
    };
    // The API's subscriptions, on this connection: what a step's change fires (a customer's
    // segments, their earning rules) runs in the portion's transaction, as in a request's.
    deps.seams.whenLoaded(subscribeSeams(deps as unknown as Deps, registry.subscriptions));
    connections.set(dbFile, deps);
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
 * The page cache the task's job type asks for (a smaller one drops the pages past it: the
 * peak memory of a command running an order import, docs/performance.md "Order import").
 */
function useCache(deps: WorkerDeps, cacheMb = WORKER_CACHE_MB): void {
  if (deps.cacheMb === cacheMb) return;
  deps.engine.setCacheMb(cacheMb);
  deps.cacheMb = cacheMb;
}

const dataVersion = (deps: WorkerDeps): number => deps.engine.dataVersion();

/**
 * Holding the gate, before a portion: did another connection commit since this one's last
 * portion? `PRAGMA data_version` changes only for other connections' commits (the API's, another
 * process's, or another worker thread's: when the gate's write count moved too, it cannot tell).
 */
function neighboursOf(deps: WorkerDeps, gate: SharedArrayBuffer): Neighbours {
  if (!deps.seen) return 'unknown';
  if (dataVersion(deps) === deps.seen.dataVersion) return 'quiet';
  return gateWrites(gate) === deps.seen.gateWrites ? 'writing' : 'unknown';
}

/** Holding the gate, after this connection wrote (a portion, a checkpoint): what it saw. */
function noteWrite(deps: WorkerDeps, gate: SharedArrayBuffer): void {
  deps.seen = { gateWrites: markGateWrite(gate), dataVersion: dataVersion(deps) };
}

/**
 * Piscina task: one portion of the job (its pure work first), or its end when `fail` is set
 * (portions kept throwing), through the write gate. Past the WAL's threshold, the portion
 * first copies the WAL back: the bulk before the gate, the rest holding it.
 */
export default async function runWorkerTask(task: WorkerTask): Promise<WorkerReport> {
  const { step, registry } = await stepOf(task);
  const deps = workerDeps(task.dbFile, task.gate, registry);
  const gate = task.gateOptions ?? DEFAULT_GATE;
  if (task.fail !== undefined) {
    const reason = task.fail;
    const { ms } = await throughWriteGate(task.gate, gate, async () => {
      await failJob(deps, task.jobId, reason, step, task.owner);
      noteWrite(deps, task.gate);
    });
    return { state: 'failed', items: 0, ms };
  }
  useCache(deps, task.cacheMb);
  const prepared = await preparePortion(deps, task, step);
  const intent = task.writeIntent;
  if (task.copyWalBack) deps.wal.copyBack();
  let checkpointMs: number | undefined;
  const { value: report } = await throughWriteGate(task.gate, gate, async () => {
    const neighbours = neighboursOf(deps, task.gate);
    if (intent) letWaitingWriteFirst(intent, task.handOffMs);
    checkpointMs = deps.wal.restart(task.walCheckpointBytes);
    const started = performance.now();
    const value = await runPortion(deps, task, step, prepared, intent && (() => waitingMs(intent) >= task.handOffMs));
    const ms = performance.now() - started;
    noteWrite(deps, task.gate);
    return { ...value, ms, neighbours };
  });
  // A bulk job leaves a WAL as large as its last stretch between checkpoints; when it
  // ends, this thread (not the API's) copies it back and lets it restart at zero bytes.
  if (report.state !== 'continue') {
    checkpointMs = deps.wal.reset('TRUNCATE');
    // Outside the gate, but a restart moves other connections' data_version: count it.
    if (checkpointMs !== undefined) markGateWrite(task.gate);
  }
  return checkpointMs === undefined ? report : { ...report, checkpointMs: Math.round(checkpointMs) };
}

/** Piscina task `checkpoint`: the runner's idle checkpoint, through the write gate. */
export async function checkpoint(task: CheckpointTask): Promise<WorkerReport> {
  const deps = workerDeps(task.dbFile, task.gate, await registryAt(task.registry));
  const { value } = await throughWriteGate(task.gate, task.gateOptions ?? DEFAULT_GATE, async () => {
    const ms = deps.wal.reset(task.mode);
    noteWrite(deps, task.gate);
    return ms;
  });
  return { state: 'finished', items: 0, ms: 0, ...(value === undefined ? {} : { checkpointMs: Math.round(value) }) };
}

/**
 * Piscina task `warm`: loads a job type's step (and with it this thread's module graph) before
 * its job can run, while the caller still prepares it (`promo import` staging its file).
 */
export async function warm(task: {
  registry: string;
  type: string;
  dbFile: string;
  gate: SharedArrayBuffer;
}): Promise<void> {
  const { registry } = await stepOf(task);
  workerDeps(task.dbFile, task.gate, registry);
}
