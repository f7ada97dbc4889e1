import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { openDatabase, WAL_SIZE_LIMIT_BYTES, type OpenOptions, type QueryStats } from '../db/connect.js';
import type { Database } from '../db/database.js';
import type { CommitStats } from '../db/group-commit.js';
import { migrate } from '../db/migrate.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { Seams } from '../lib/seams.js';
import { createLogger, type Logger } from './logger.js';
import { loadSubscriptions } from './subscriptions.js';

export type { Logger };

/** Everything a service needs, passed explicitly. */
export interface Deps {
  db: Kysely<Database>;
  sqlite: BetterSqlite3.Database;
  /** Group commit's figures on this connection (db/group-commit.ts). */
  commitStats(): CommitStats;
  /** Where the API's transactions say they wait for the write lock: job workers let them in (db/write-intent.ts). */
  writeIntent?: SharedArrayBuffer;
  /** Statements run and queries compiled on this connection since it opened (db/connect.ts). */
  queryStats(): QueryStats;
  dbFile: string;
  clock: Clock;
  log: Logger;
  /**
   * In-transaction extension points (lib/seams.ts): the paid-order seam of orders, to which
   * loyalty's earning rules subscribe (app/subscriptions.ts, on every Deps).
   */
  seams: Seams;
  /** Called on shutdown, in reverse order of registration (job leases, pools...). */
  onClose: Array<() => Promise<void> | void>;
  close(): Promise<void>;
}

export interface DepsOptions extends OpenOptions {
  dbFile: string;
  clock?: Clock;
  log?: Logger;
  /** Apply pending migrations first (the default: `serve` and every command migrate at start). */
  migrate?: boolean;
}

export function createDeps(options: DepsOptions): Deps {
  // Requests that write together share one durable COMMIT (db/group-commit.ts); reads use a
  // connection of their own and never wait for the writer (db/driver.ts). A request's commit
  // checkpoints only past 64 MiB of WAL, a safety net: job worker threads copy the WAL back
  // during and between jobs (jobs/wal-checkpoints.ts), off the request thread.
  const { db, sqlite, commitStats, queryStats, writeIntent, close } = openDatabase(options.dbFile, {
    groupCommit: true, separateReads: true, autocheckpointBytes: WAL_SIZE_LIMIT_BYTES, ...options,
  });
  try {
    if (options.migrate !== false) migrate(sqlite);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const onClose: Deps['onClose'] = [];
  const deps: Deps = {
    db,
    sqlite,
    commitStats,
    queryStats,
    writeIntent,
    dbFile: options.dbFile,
    clock: options.clock ?? systemClock,
    // Commands and tests log only what goes wrong; serve passes its configured logger.
    log: options.log ?? createLogger({ level: 'warn' }),
    seams: new Seams(),
    onClose,
    async close() {
      for (const hook of onClose.splice(0).reverse()) await hook();
      await close();
    },
  };
  // The seam subscriptions (app/subscriptions.ts): loaded in the background, waited for by fire.
  deps.seams.whenLoaded(loadSubscriptions(deps));
  return deps;
}
