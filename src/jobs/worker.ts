import type { Deps } from '../app/deps.js';
import type { StepRef } from '../app/job-registry.js';
import { openDatabase, truncateWal } from '../db/connect.js';
import { systemClock } from '../lib/clock.js';
import { failJob, preparePortion, runPortion, type PortionReport, type PortionTask } from './portions.service.js';
import { loadStep } from './step-loader.js';
import { DEFAULT_GATE, throughWriteGate, type GateOptions } from './write-gate.js';

/**
 * The one Piscina worker of every job type. A task names the step module to run (from the
 * registry); the worker imports it once and runs one portion of the job with it.
 */
export interface WorkerTask extends PortionTask {
  dbFile: string;
  step: StepRef;
  gate: SharedArrayBuffer;
  gateOptions?: GateOptions;
  /** Instead of a portion: end the job FAILED with this reason, running the step's `fail`. */
  fail?: string;
}

export interface WorkerReport extends PortionReport {
  /** How long the portion held the database. */
  ms: number;
  /** The job's last portion: how long copying the WAL back took. */
  checkpointMs?: number;
}

type WorkerDeps = Pick<Deps, 'db' | 'sqlite' | 'clock'>;
const connections = new Map<string, WorkerDeps>();

/**
 * The worker thread's own connection to the file: synchronous=NORMAL (a job resumes from
 * what the database holds), a larger page cache for bulk inserts into big indexes, and a
 * checkpoint every 20,000 WAL pages rather than 1,000: a portion of random codes dirties
 * pages all over the code index, and checkpointing them after every portion costs more than
 * the inserts. Statement journals stay in memory (temp_store): an import's savepoint per
 * order journals the ~25 pages the order touches, more than the 64 KiB SQLite keeps in memory
 * before it spills them to a temp file, so each order wrote one (~40 us of 860 per order).
 * A journal holds at most the pages one statement or savepoint of a portion touches.
 */
function workerDeps(dbFile: string): WorkerDeps {
  let deps = connections.get(dbFile);
  if (!deps) {
    const { db, sqlite } = openDatabase(dbFile, { synchronous: 'NORMAL' });
    sqlite.pragma('cache_size = -65536');
    sqlite.pragma('wal_autocheckpoint = 20000');
    sqlite.pragma('temp_store = MEMORY');
    deps = { db, sqlite, clock: systemClock };
    connections.set(dbFile, deps);
  }
  return deps;
}

/**
 * Piscina task: one portion of the job (its pure work first), or its end when `fail` is set
 * (portions kept throwing), through the write gate.
 */
export default async function runWorkerTask(task: WorkerTask): Promise<WorkerReport> {
  const step = loadStep(task.step);
  const deps = workerDeps(task.dbFile);
  const gate = task.gateOptions ?? DEFAULT_GATE;
  if (task.fail !== undefined) {
    const reason = task.fail;
    const { ms } = await throughWriteGate(task.gate, gate, () => failJob(deps, task.jobId, reason, step, task.owner));
    return { state: 'failed', items: 0, ms };
  }
  const prepared = await preparePortion(deps, task, step);
  const { value, ms } = await throughWriteGate(task.gate, gate, () => runPortion(deps, task, step, prepared));
  // A bulk job leaves a WAL as large as its largest stretch between checkpoints; when it
  // ends, this thread (not the API's) copies it back and lets it restart at zero bytes.
  if (value.state === 'continue') return { ...value, ms };
  const checkpointStarted = performance.now();
  truncateWal(deps.sqlite);
  return { ...value, ms, checkpointMs: Math.round(performance.now() - checkpointStarted) };
}
