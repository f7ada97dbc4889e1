import { openDatabase } from '../db/connect.js';
import type { Deps } from '../app/deps.js';
import { systemClock } from '../lib/clock.js';
import type { JobStep } from '../modules/jobs/job-step.js';
import { preparePortion, runPortion, type PortionReport, type PortionTask } from '../modules/jobs/portions.service.js';
import { DEFAULT_GATE, throughWriteGate, type GateOptions } from './write-gate.js';

/** What the runner sends a worker for one portion. */
export interface WorkerTask extends PortionTask {
  dbFile: string;
  gate: SharedArrayBuffer;
  gateOptions?: GateOptions;
}

export interface WorkerReport extends PortionReport {
  /** How long the portion held the database. */
  ms: number;
}

type WorkerDeps = Pick<Deps, 'db' | 'sqlite' | 'clock'>;
const connections = new Map<string, WorkerDeps>();

/**
 * The worker thread's own connection to the file: synchronous=NORMAL (a job resumes from
 * what the database holds), a larger page cache for bulk inserts into big indexes, and a
 * checkpoint every 20,000 WAL pages rather than 1,000: a portion of random codes dirties
 * pages all over the code index, and checkpointing them after every portion costs more than
 * the inserts.
 */
function workerDeps(dbFile: string): WorkerDeps {
  let deps = connections.get(dbFile);
  if (!deps) {
    const { db, sqlite } = openDatabase(dbFile, { synchronous: 'NORMAL' });
    sqlite.pragma('cache_size = -65536');
    sqlite.pragma('wal_autocheckpoint = 20000');
    deps = { db, sqlite, clock: systemClock };
    connections.set(dbFile, deps);
  }
  return deps;
}

/** The body of every `<job>.worker.ts`: one portion of the job (its pure work first), through the write gate. */
export async function runWorkerTask<P, R>(task: WorkerTask, step: JobStep<P, R>): Promise<WorkerReport> {
  const deps = workerDeps(task.dbFile);
  const prepared = await preparePortion(deps, task, step);
  const { value, ms } = await throughWriteGate(task.gate, task.gateOptions ?? DEFAULT_GATE, () => runPortion(deps, task, step, prepared));
  return { ...value, ms };
}
