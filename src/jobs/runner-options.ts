import type { JobRegistry, SweepRegistry } from './registry.js';
import type { JobHostOptions } from '../db/engine.js';
import type { WorkerReport } from './worker.js';

/** What a job runner (jobs/runner.ts) is started with, and what its caller holds. */
export interface RunnerOptions {
  /** Worker threads (and portions in flight at once). */
  workers: number;
  /** The job types this runner can run (root/job-registry.ts, or a test's own). */
  registry: JobRegistry;
  /** How long a lease lasts without a heartbeat. */
  leaseMs?: number;
  /** How often the runner looks for new jobs when nobody tells it. */
  pollMs?: number;
  /** Run only these jobs (a command line running its own). */
  only?: string[];
  /** Jobs held at once; they advance round-robin, one portion each. */
  maxJobs?: number;
  /** How worker threads take turns at the database (db/engine.ts JobHostOptions); tests shorten it. */
  gateOptions?: JobHostOptions['gateOptions'];
  /**
   * The longest portion target while nobody else writes (portion-size.ts): TARGET_PORTION_MS
   * unless given, so that an API in this process never waits behind a long portion; a command
   * that runs its own job (follow.ts) lets portions grow to QUIET_PORTION_MS.
   */
  quietPortionMs?: number;
  /**
   * How long an API write of this process waits before a generation's portion ends for it
   * (PROMO_HAND_OFF_MS): HAND_OFF_MS unless given. Shorter: writes wait less, the generation
   * commits more often and runs slower (docs/operations.md).
   */
  handOffMs?: number;
  /** When worker threads copy the WAL back (db/sqlite/wal-checkpoints.ts); tests pass smaller ones. */
  wal?: JobHostOptions['wal'];
  /**
   * The caller's own thread copies the WAL back while the jobs run (follow.ts: a command's
   * idle main thread): worker threads then skip their copy before each portion.
   */
  callerCopiesWal?: boolean;
  /**
   * The worker threads' old space, in MiB (V8's own sizing unless given): V8 collects sooner
   * near it. A command's job (follow.ts) caps it so that its process stays small: an order
   * import's worker heap grew to ~110 MB, mostly garbage, for a live set of tens.
   */
  workerHeapMb?: number;
  onReport?: (jobId: string, report: WorkerReport) => void;
  /** A checkpoint ran (db/sqlite/wal-checkpoints.ts): in a portion, at a job's end, or while idle. */
  onCheckpoint?: (ms: number) => void;
  /** Periodic sweeps (root/sweep-registry.ts) to run at start and every `sweepIntervalMs`. */
  sweeps?: SweepRegistry;
  sweepIntervalMs?: number;
}

export interface JobRunner {
  owner: string;
  wake(): void;
  /** Runs the sweeps once more, now (tests move the clock, then call it). */
  sweepNow(): Promise<void>;
  /**
   * For a caller that copies the WAL back itself (callerCopiesWal): its copy on the runner's connection, taking
   * turns with the workers' checkpoints, and counted for their restart threshold as theirs are; it
   * waits for the writer to be between the runner's own transactions.
   */
  copyWalBack(): Promise<void>;
  /** Starts a worker thread and loads this job type's step in it now, before its first portion. */
  warmUp(type: string): void;
  /** Stops claiming, waits for portions in flight, releases every lease, ends the threads. */
  stop(): Promise<void>;
}
