import type { DatabaseEngine } from '../db/engine.js';
import { isPostgresUrl } from '../db/location.js';
import { WAL_SIZE_LIMIT_BYTES, type OpenOptions } from '../db/sqlite/connect.js';
import { openSqliteEngine } from '../db/sqlite/engine.js';
import { withJobHost } from '../db/sqlite/job-host.js';
import { migrate } from '../db/sqlite/migrate.js';
import type { Deps } from '../app/deps.js';
import { createLogger, type Logger } from '../app/logger.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { Seams } from '../lib/seams.js';
import { subscribeSeams } from '../jobs/registry.js';
import { seamSubscriptions } from './subscriptions.js';
import { exportsDirectory } from '../modules/exports/index.js';
import { runWriteOperation } from './write-operations.js';

export interface DepsOptions extends OpenOptions {
  /** A SQLite file's path, or a postgres:// URL (then open it with openDeps). */
  dbFile: string;
  clock?: Clock;
  log?: Logger;
  /** Apply pending migrations first (the default: `serve` and every command migrate at start). */
  migrate?: boolean;
  /** Where exports are written: beside a SQLite file by default (`<file>.exports`), `./promo.exports` for a PostgreSQL URL. */
  exportsDir?: string;
}

/** The Deps of a SQLite file (openDeps opens either engine). */
export function createDeps(options: DepsOptions): Deps {
  // Requests that write together share one durable COMMIT (db/sqlite/group-commit.ts); reads use a
  // connection of their own and never wait for the writer (db/sqlite/driver.ts). A request's commit
  // checkpoints only past 64 MiB of WAL, a safety net: job worker threads copy the WAL back
  // during and between jobs (db/sqlite/wal-checkpoints.ts), off the request thread.
  const engine = withJobHost(
    openSqliteEngine(options.dbFile, {
      groupCommit: true,
      separateReads: true,
      autocheckpointBytes: WAL_SIZE_LIMIT_BYTES,
      ...options,
    }),
  );
  try {
    if (options.migrate !== false) migrate(engine.sqlite);
  } catch (error) {
    engine.sqlite.close();
    throw error;
  }
  return depsOver(engine, options);
}

/**
 * The Deps of the database `options.dbFile` names: a SQLite file (createDeps), or a PostgreSQL
 * database by its postgres:// URL, migrated under an advisory lock unless told not to.
 */
export async function openDeps(options: DepsOptions): Promise<Deps> {
  if (!isPostgresUrl(options.dbFile)) return createDeps(options);
  const [{ openPostgresEngine }, { migratePostgres }, { withPostgresJobHost }] = await Promise.all([
    import('../db/postgres/engine.js'),
    import('../db/postgres/migrate.js'),
    import('../db/postgres/job-host.js'),
  ]);
  if (options.migrate !== false) await migratePostgres(options.dbFile);
  const engine = await openPostgresEngine(options.dbFile);
  return depsOver(withPostgresJobHost(engine, options.dbFile), options);
}

function depsOver(engine: DatabaseEngine, options: DepsOptions): Deps {
  const onClose: Deps['onClose'] = [];
  const deps: Deps = {
    db: engine.db,
    engine,
    exportsDir: options.exportsDir ?? exportsDirectory(isPostgresUrl(options.dbFile) ? 'promo' : options.dbFile),
    clock: options.clock ?? systemClock,
    // Commands and tests log only what goes wrong; serve passes its configured logger.
    log: options.log ?? createLogger({ level: 'warn' }),
    seams: new Seams(),
    writes: { run: (operation, args) => runWriteOperation(deps, operation, args) },
    onClose,
    async close() {
      for (const hook of onClose.splice(0).reverse()) await hook();
      await engine.close();
    },
  };
  // The seam subscriptions (root/subscriptions.ts): loaded in the background, waited for by fire.
  deps.seams.whenLoaded(subscribeSeams(deps, seamSubscriptions));
  return deps;
}
