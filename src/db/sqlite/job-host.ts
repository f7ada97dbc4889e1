import type BetterSqlite3 from 'better-sqlite3';
import type { CommitStats, JobHost, JobHostOptions } from '../engine.js';
import { copyBackCounted, DEFAULT_WAL_THRESHOLDS, idleReset, type IdleLook } from './wal-checkpoints.js';
import { createWriteGate, DEFAULT_GATE, type GateOptions } from './write-gate.js';

/** What each worker thread of a runner opens its connection with (db/sqlite/job-connection.ts). */
export interface SqliteJobSpec {
  dbFile: string;
  /** The runner's write gate, shared by its worker threads (db/sqlite/write-gate.ts). */
  gate: SharedArrayBuffer;
  gateOptions: GateOptions;
  /** Past this many bytes of WAL, a portion first copies it back (db/sqlite/wal-checkpoints.ts). */
  walCheckpointBytes: number;
  /** Copy the WAL back before each portion (PASSIVE); false when the runner's caller does (jobs/follow.ts). */
  copyWalBack: boolean;
  /** Where the API's writer of this process says it waits for the lock (db/sqlite/write-intent.ts). */
  writeIntent: SharedArrayBuffer;
  handOffMs: number;
}

/** The pieces of the runner's own SQLite engine the host reads. */
export interface HostConnection {
  sqlite: BetterSqlite3.Database;
  dbFile: string;
  commitStats(): CommitStats;
  writeIntent: SharedArrayBuffer;
}

// No build step: the worker thread (with tsx registered) imports the TypeScript file itself.
const CONNECTION_HOME = new URL('./job-connection.ts', import.meta.url).href;

/**
 * The job runner's side of a SQLite file: one write gate for its worker threads, the API's
 * commits as the signal that others write, and the WAL's upkeep while no job runs.
 */
export function sqliteJobHost(own: HostConnection, options: JobHostOptions): JobHost {
  const gate = createWriteGate();
  const wal = options.wal ?? DEFAULT_WAL_THRESHOLDS;
  const spec: SqliteJobSpec = {
    dbFile: own.dbFile,
    gate,
    gateOptions: options.gateOptions ?? DEFAULT_GATE,
    walCheckpointBytes: wal.jobBytes,
    copyWalBack: !options.callerCopiesWal,
    writeIntent: own.writeIntent,
    handOffMs: options.handOffMs,
  };
  const look: IdleLook = { at: 0, commits: own.commitStats().batches };
  return {
    connection: { home: CONNECTION_HOME, spec },
    apiCommits: () => own.commitStats().batches,
    idleUpkeep: () => idleReset(look, own.commitStats().batches, own.dbFile, wal),
    upkeepHere: () => copyBackCounted(own.sqlite, gate),
  };
}
