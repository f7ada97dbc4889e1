import type { JobHost, JobHostOptions } from '../engine.js';
import type { SqliteEngine } from './engine.js';
import { JOB_CONNECTION_HOME, type SqliteJobSpec } from './job-connection.js';
import { copyBackCounted, DEFAULT_WAL_THRESHOLDS, idleReset, type IdleLook } from './wal-checkpoints.js';
import { createWriteGate, DEFAULT_GATE } from './write-gate.js';

/**
 * The job runner's side of a SQLite file: one write gate for its worker threads, the API's
 * commits as the signal that others write, and the WAL's upkeep while no job runs.
 */
function sqliteJobHost(own: SqliteEngine, options: JobHostOptions): JobHost {
  const gate = createWriteGate();
  const wal = options.wal ?? DEFAULT_WAL_THRESHOLDS;
  const spec: SqliteJobSpec = {
    dbFile: own.file,
    gate,
    gateOptions: options.gateOptions ?? DEFAULT_GATE,
    walCheckpointBytes: wal.jobBytes,
    copyWalBack: !options.callerCopiesWal,
    writeIntent: own.writeIntent,
    handOffMs: options.handOffMs,
  };
  const look: IdleLook = { at: 0, commits: own.commitStats().batches };
  return {
    connection: { home: JOB_CONNECTION_HOME, spec },
    apiCommits: () => own.commitStats().batches,
    idleUpkeep: () => idleReset(look, own.commitStats().batches, own.file, wal),
    // The runner's own claims and heartbeats share this writer (and its group commit): the copy
    // runs between their transactions (a checkpoint inside one fails SQLITE_LOCKED).
    upkeepHere: () => own.betweenTransactions(() => copyBackCounted(own.sqlite, gate)),
  };
}

/**
 * The engine with its job runner's side: the API's and every command's (root/create-deps.ts).
 * A worker thread's own connection has none (db/sqlite/job-connection.ts).
 */
export const withJobHost = (engine: SqliteEngine): SqliteEngine => ({
  ...engine,
  jobHost: (options) => sqliteJobHost(engine, options),
});
