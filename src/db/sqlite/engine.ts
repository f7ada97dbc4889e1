import { statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import { AppError } from '../../lib/errors.js';
import { directReads } from '../direct-reads.js';
import { isDatabaseError } from '../errors.js';
import type { BulkStatement, DatabaseEngine, EngineStats, SpaceFigures, StorageUpkeep } from '../engine.js';
import { openDatabase, type DatabaseHandle, type OpenOptions } from './connect.js';
import { withFirstWrite } from './first-write.js';
import { truncateWal, walBytes } from './wal.js';

/**
 * The SQLite engine: the port (db/engine.ts) over one better-sqlite3 writer (and, for the API,
 * a reader), plus what only SQLite has, for the SQLite-bound machinery beside it (job workers'
 * page cache and WAL keeping, group commit's figures, the write intent).
 */
export interface SqliteEngine extends DatabaseEngine, Omit<DatabaseHandle, 'db' | 'close'> {
  /** The database file. */
  readonly file: string;
  /** Sets this connection's page cache, in MiB (job workers size it per job type). */
  setCacheMb(mb: number): void;
  /** SQLite's data_version on this connection: it moves when another connection commits. */
  dataVersion(): number;
}

/** Pages staging keeps in cache: it only appends, so a big cache would only hold pages it never reads again. */
const STAGING_CACHE_PAGES = 256;
const AUTO_VACUUM = ['NONE', 'FULL', 'INCREMENTAL'] as const;

function storageOf(sqlite: BetterSqlite3.Database, handle: DatabaseHandle): StorageUpkeep {
  return {
    space: (): SpaceFigures => ({
      pageSize: sqlite.pragma('page_size', { simple: true }) as number,
      pageCount: sqlite.pragma('page_count', { simple: true }) as number,
      freePages: sqlite.pragma('freelist_count', { simple: true }) as number,
      autoVacuum: AUTO_VACUUM[sqlite.pragma('auto_vacuum', { simple: true }) as number] ?? 'NONE',
    }),
    releaseFreePages: (_trx, pages) => void sqlite.pragma(`incremental_vacuum(${Math.max(1, Math.floor(pages))})`),
    rewriteWhole: () => rewriteWhole(sqlite),
    emptyLog: () => handle.betweenTransactions(() => void truncateWal(sqlite)),
    async erasingFreedSpace(fn) {
      // FAST (every connection's default, db/sqlite/connect.ts) zeroes freed space inside a
      // page; ON also zeroes the pages the transaction frees.
      sqlite.pragma('secure_delete = ON');
      try {
        return await fn();
      } finally {
        sqlite.pragma('secure_delete = FAST');
      }
    },
  };
}

/** VACUUM holds the write lock throughout: refused at once (no busy wait) if anyone writes. */
function rewriteWhole(sqlite: BetterSqlite3.Database): void {
  const timeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
  sqlite.pragma('busy_timeout = 0');
  try {
    sqlite.pragma('auto_vacuum = INCREMENTAL');
    sqlite.exec('VACUUM');
  } catch (error) {
    if (!isDatabaseError(error, 'busy')) throw error;
    throw new AppError(
      'database_in_use',
      'Another process is writing to this database; stop promo serve before promo vacuum --full',
    );
  } finally {
    sqlite.pragma(`busy_timeout = ${timeout}`);
  }
}

/**
 * Bulk statements by SQL text, prepared once on the connection: going through Kysely for each of
 * a million rows would cost more than the insert itself.
 */
function bulkStatements(sqlite: BetterSqlite3.Database): (query: CompiledQuery) => BulkStatement {
  const prepared = new Map<string, BulkStatement>();
  return (query) => {
    let statement = prepared.get(query.sql);
    if (!statement) {
      const raw = sqlite.prepare(query.sql);
      // One transaction's connection: SQLite needs no handle from trx.
      statement = {
        run: async (_trx, rows) => rows.map((parameters) => raw.run(parameters as unknown[]).changes === 1),
      };
      prepared.set(query.sql, statement);
    }
    return statement;
  };
}

/**
 * Runs `fn` in a savepoint on the writer. SQLite has one writer per connection and the open
 * transaction is its only one, so the savepoint needs no handle from `trx`.
 */
async function inSavepoint<T>(sqlite: BetterSqlite3.Database, fn: () => Promise<T>): Promise<T> {
  sqlite.exec('SAVEPOINT promo_item');
  try {
    const value = await fn();
    sqlite.exec('RELEASE promo_item');
    return value;
  } catch (error) {
    sqlite.exec('ROLLBACK TO promo_item; RELEASE promo_item');
    throw error;
  }
}

/** The file's size and its WAL's, and the connection's commits and statements (what /metrics shows). */
function statsOf(file: string, handle: DatabaseHandle): EngineStats {
  return {
    storageBytes: { database: statSync(file, { throwIfNoEntry: false })?.size ?? 0, wal: walBytes(file) },
    commits: handle.commitStats(),
    queries: handle.queryStats(),
  };
}

/** Opens the database file as the SQLite engine (db/sqlite/connect.ts openDatabase for the options). */
export function openSqliteEngine(file: string, options: OpenOptions = {}): SqliteEngine {
  const handle = openDatabase(file, options);
  const { sqlite } = handle;
  return {
    ...handle,
    file,
    rowLocks: false,
    inSavepoint: (_trx, fn) => inSavepoint(sqlite, fn),
    prepareBulk: bulkStatements(sqlite),
    withFirstWrite,
    shrinkCache() {
      const before = sqlite.pragma('cache_size', { simple: true }) as number;
      sqlite.pragma(`cache_size = ${STAGING_CACHE_PAGES}`);
      return () => void sqlite.pragma(`cache_size = ${before}`);
    },
    storage: storageOf(sqlite, handle),
    stats: () => statsOf(file, handle),
    // The file is opened by this process: a server that answers has its database.
    checkHealth: async () => undefined,
    setCacheMb: (mb) => void sqlite.pragma(`cache_size = -${mb * 1024}`),
    dataVersion: () => sqlite.pragma('data_version', { simple: true }) as number,
    committedVersion: () => directReads(handle.db)?.dataVersion(),
  };
}

/**
 * The SQLite engine behind a port, for what looks at the file itself (tests reading pragmas):
 * anything else is refused, not half-served.
 */
export function sqliteEngineOf(engine: DatabaseEngine): SqliteEngine {
  if (!('sqlite' in engine)) throw new Error('This needs the SQLite engine');
  return engine as SqliteEngine;
}
