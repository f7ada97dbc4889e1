import type { DatabaseEngine, Db } from '../db/engine.js';
import type { Clock } from '../lib/clock.js';
import type { Seams } from '../lib/seams.js';
import type { Logger } from './logger.js';

export type { Logger };

export interface WholeWrites {
  run(operation: string, args: unknown[]): Promise<string>;
}

/** Everything a service needs, passed explicitly. */
export interface Deps {
  db: Db;
  /**
   * The database engine behind its port (db/engine.ts): savepoints, bulk statements, the first
   * write, upkeep, its figures (`stats()`) and the job runner's side (`jobHost`).
   */
  engine: DatabaseEngine;
  /** Where export files are written (SQLite: `<database file>.exports/`, beside it). */
  exportsDir: string;
  clock: Clock;
  log: Logger;
  /**
   * In-transaction extension points (lib/seams.ts): the paid-order seam of orders, to which
   * loyalty's earning rules subscribe (root/subscriptions.ts, on every Deps).
   */
  seams: Seams;
  /**
   * Whole write operations by name (root/write-operations.ts), answered as their JSON text.
   * They run here; under `serve` on SQLite they run on the writer thread
   * (root/writer-thread.ts), which keeps their statements and COMMIT off the thread that
   * answers HTTP.
   */
  writes: WholeWrites;
  /** Called on shutdown, in reverse order of registration (job leases, pools...). */
  onClose: Array<() => Promise<void> | void>;
  close(): Promise<void>;
}
