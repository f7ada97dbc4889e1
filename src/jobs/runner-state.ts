import { Piscina } from 'piscina';
import type { Deps } from '../app/deps.js';
import type { JobHost } from '../db/engine.js';
import { renewLeases } from './leases.service.js';
import type { JobTypeEntry } from './registry.js';
import type { RunnerOptions } from './runner-options.js';

// The job runner's state (runner.ts): the jobs it holds, the heartbeat that keeps their
// leases, and its pool of worker threads.

export interface HeldJob {
  id: string;
  type: string;
  entry: JobTypeEntry;
  portion: number;
  /** The duration its next portion is sized for (jobs/portion-size.ts). */
  target: number;
  /** Its portions in flight: a second one prepares while the first writes, if its type overlaps. */
  inFlight: number;
  errors: number;
  retryAt: number;
  /** When its lease was last renewed (a portion renews it; the heartbeat covers the rest). */
  renewedAt: number;
}

export interface RunnerState {
  deps: Deps;
  options: RunnerOptions;
  owner: string;
  leaseMs: number;
  held: Map<string, HeldJob>;
  /** Held job ids in turn order: a job goes to the back when it gets a portion. */
  rotation: string[];
  inFlight: Set<Promise<void>>;
  /** The warm-ups among inFlight: they write nothing, so stop ends them rather than waiting. */
  warmUps: Set<Promise<void>>;
  /** The engine's side of this runner: its worker threads' connections, the signals it sizes portions on. */
  host: JobHost;
  pool?: Piscina;
  stopping: boolean;
  ticking: boolean;
  again: boolean;
  scheduled?: NodeJS.Immediate;
  lastStagingCheck: number;
  /** The API's commits at the last report (JobHost.apiCommits): did it write since? */
  apiCommits: number;
}

const WORKER = new URL('./worker-thread.mjs', import.meta.url).href;

export const poolOf = (r: RunnerState): Piscina =>
  (r.pool ??= new Piscina({
    filename: WORKER,
    maxThreads: r.options.workers,
    minThreads: 0,
    idleTimeout: 30_000,
    execArgv: ['--import', import.meta.resolve('tsx')],
    ...(r.options.workerHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: r.options.workerHeapMb } } : {}),
  }));

export function drop(r: RunnerState, id: string): void {
  r.held.delete(id);
  r.rotation = r.rotation.filter((x) => x !== id);
}

/**
 * Extends the leases of held jobs that no portion renewed lately (a write on this thread, so
 * it stays rare); a job whose lease another runner took is dropped.
 */
export async function heartbeat(r: RunnerState): Promise<void> {
  const stale = [...r.held.values()]
    .filter((job) => !job.inFlight && Date.now() - job.renewedAt > r.leaseMs / 3)
    .map((job) => job.id);
  if (stale.length === 0 || r.stopping) return;
  try {
    const kept = new Set(await renewLeases(r.deps, r.owner, stale, r.leaseMs));
    for (const id of stale) {
      if (kept.has(id)) (r.held.get(id) as HeldJob).renewedAt = Date.now();
      else if (!r.held.get(id)?.inFlight) drop(r, id);
    }
  } catch (error) {
    r.deps.log.error('job runner heartbeat failed', error);
  }
}
