import type { JobHost } from '../engine.js';
import type { PostgresEngine } from './engine.js';
import { JOB_CONNECTION_HOME, type PostgresJobSpec } from './job-connection.js';
import type { ColumnNullability } from './null-order.js';

/** A portion's transaction and, for a job type that overlaps (JobTypeEntry.overlap), a second one. */
const WORKER_POOL_SIZE = 2;

/**
 * A portion's target while nobody else writes, which is always on PostgreSQL: no API write waits
 * for a portion (row locks only), while each portion pays a fixed share of round trips (the
 * lease, the cursor, its step's reads, the commit's flush), tens of ms on a loaded machine. At
 * SQLite's 80 ms, portions shrank to 10 items of mostly that share.
 */
const QUIET_PORTION_MS = 1000;

/**
 * The job runner's side of a PostgreSQL database: each worker thread opens a pool of its own on
 * the URL. Jobs are claimed with FOR UPDATE SKIP LOCKED (jobs/jobs.repository.ts), so several
 * servers share them; there is no gate to share between threads, no log to keep, and no signal
 * of this process's commits that portions need (the API's writes never wait for one).
 */
function postgresJobHost(url: string, columns: ColumnNullability): JobHost {
  const spec: PostgresJobSpec = { url, poolSize: WORKER_POOL_SIZE, columns };
  return {
    connection: { home: JOB_CONNECTION_HOME, spec },
    apiCommits: () => 0,
    idleUpkeep: () => undefined,
    upkeepHere: async () => undefined,
    quietPortionMs: QUIET_PORTION_MS,
  };
}

/** The engine with its job runner's side: the API's and every command's (root/create-deps.ts). */
export const withPostgresJobHost = (engine: PostgresEngine, url: string): PostgresEngine => ({
  ...engine,
  jobHost: () => postgresJobHost(url, engine.columns),
});
