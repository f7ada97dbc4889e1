import type { QueryStats } from '../db/sqlite/connect.js';
import type { DatabaseEngine, Db } from '../db/engine.js';
import type { CommitStats } from '../db/sqlite/group-commit.js';
import type { Clock } from '../lib/clock.js';
import type { Seams } from '../lib/seams.js';
import type { Logger } from './logger.js';

export type { Logger };

/** Everything a service needs, passed explicitly. */
export interface Deps {
  db: Db;
  /** The database engine behind its port (db/engine.ts): savepoints, bulk statements, the first write, upkeep. */
  engine: DatabaseEngine;
  /** Group commit's figures on this connection (db/sqlite/group-commit.ts). */
  commitStats(): CommitStats;
  /** Where the API's transactions say they wait for the write lock: job workers let them in (db/sqlite/write-intent.ts). */
  writeIntent?: SharedArrayBuffer;
  /** Statements run and queries compiled on this connection since it opened (db/sqlite/connect.ts). */
  queryStats(): QueryStats;
  dbFile: string;
  clock: Clock;
  log: Logger;
  /**
   * In-transaction extension points (lib/seams.ts): the paid-order seam of orders, to which
   * loyalty's earning rules subscribe (root/subscriptions.ts, on every Deps).
   */
  seams: Seams;
  /** Called on shutdown, in reverse order of registration (job leases, pools...). */
  onClose: Array<() => Promise<void> | void>;
  close(): Promise<void>;
}
