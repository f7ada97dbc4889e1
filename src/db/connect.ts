import BetterSqlite3 from 'better-sqlite3';
import {
  Kysely, SelectQueryNode, SqliteDialect, SqliteDriver, type CompiledQuery, type DatabaseConnection, type KyselyPlugin, type SqliteDatabase,
} from 'kysely';
import type { Database } from './database.js';
import { runFirstWrite } from './first-write.js';
import { GroupCommit, type Batch, type CommitStats } from './group-commit.js';

export interface OpenOptions {
  /** FULL for the API (a committed redemption survives a power cut); NORMAL for bulk workers. */
  synchronous?: 'FULL' | 'NORMAL';
  /** Milliseconds a writer waits for the lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /**
   * Transactions that arrive together share one COMMIT (db/group-commit.ts): the API's
   * connection. Bulk workers commit portions of their own and leave it off.
   */
  groupCommit?: boolean;
}

/**
 * What a connection has run since it opened: statements executed through Kysely (each run of
 * a prepared statement; transaction control and the bulk writers' own statements are not
 * counted) and queries Kysely built and compiled. The README's per-request budget is checked
 * against these (test/db/statement-budget.test.ts).
 */
export interface QueryStats {
  statements: number;
  compiles: number;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  sqlite: BetterSqlite3.Database;
  /** Group commit's figures; zeros without it. */
  commitStats(): CommitStats;
  queryStats(): QueryStats;
  close(): Promise<void>;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleepMs = (ms: number): void => {
  Atomics.wait(sleeper, 0, 0, ms);
};

/**
 * BEGIN IMMEDIATE, waiting for the write lock by polling every millisecond. SQLite's own busy
 * handler sleeps longer and longer between tries (up to 100 ms), so a writer that has waited
 * one bulk portion (~80 ms) sleeps through the short gap the worker leaves before its next
 * portion and then waits a whole second portion. Polling takes the lock within a millisecond
 * of its release. busy_timeout still covers statements outside transactions.
 */
function beginImmediate(sqlite: BetterSqlite3.Database, timeoutMs: number): void {
  sqlite.pragma('busy_timeout = 0');
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        sqlite.exec('begin immediate');
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
        sleepMs(1);
      }
    }
  } finally {
    sqlite.pragma(`busy_timeout = ${timeoutMs}`);
  }
}

/**
 * Kysely's SQLite driver begins transactions DEFERRED. A deferred transaction that reads and
 * then writes fails at once with SQLITE_BUSY_SNAPSHOT when another connection wrote in
 * between, without honouring busy_timeout. IMMEDIATE takes the write lock up front, so the
 * transaction waits its turn instead.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  constructor(
    protected readonly sqlite: BetterSqlite3.Database,
    protected readonly busyTimeoutMs: number,
    database: SqliteDatabase,
  ) {
    super({ database });
  }

  override async beginTransaction(): Promise<void> {
    beginImmediate(this.sqlite, this.busyTimeoutMs);
    runFirstWrite(this.sqlite, () => this.sqlite.exec('rollback'));
  }
}

/**
 * Each Kysely transaction is a savepoint of a shared batch (db/group-commit.ts). Kysely awaits
 * releaseConnection before a transaction's `execute` returns, so that is where a committed
 * transaction waits for its batch's COMMIT, with the connection already free for the next
 * transaction to join the batch. A write outside any transaction while a batch is open joins
 * it, and waits the same way.
 */
class GroupCommitDriver extends ImmediateSqliteDriver {
  readonly group = new GroupCommit(this.sqlite, () => beginImmediate(this.sqlite, this.busyTimeoutMs));
  /** The batch the connection's current holder wrote into. */
  private joined: Batch | null = null;
  private wrapped: DatabaseConnection | null = null;

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.wrapped ??= {
      executeQuery: (query: CompiledQuery) => {
        const batch = this.group.openBatch;
        if (batch && !SelectQueryNode.is(query.query)) {
          this.joined = batch;
          batch.kept = true;
        }
        return connection.executeQuery(query);
      },
      streamQuery: (query: CompiledQuery, chunkSize?: number) => connection.streamQuery(query, chunkSize),
    } as DatabaseConnection;
    return this.wrapped;
  }

  override async beginTransaction(): Promise<void> {
    this.group.begin();
    runFirstWrite(this.sqlite, () => this.group.rollback());
  }

  override async commitTransaction(): Promise<void> {
    this.joined = this.group.commit();
  }

  override async rollbackTransaction(): Promise<void> {
    this.group.rollback();
  }

  override async releaseConnection(): Promise<void> {
    const joined = this.joined;
    this.joined = null;
    await super.releaseConnection();
    if (joined) await joined.durable;
  }

  override async destroy(): Promise<void> {
    await this.group.drain();
    await super.destroy();
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  private readonly cached: SqliteDatabase;
  private driver: ImmediateSqliteDriver | null = null;

  constructor(
    private readonly sqlite: BetterSqlite3.Database,
    private readonly busyTimeoutMs: number,
    private readonly groupCommit: boolean,
    stats: QueryStats,
  ) {
    const cached = withStatementCache(sqlite, stats);
    super({ database: cached });
    this.cached = cached;
  }

  override createDriver(): SqliteDriver {
    const Driver = this.groupCommit ? GroupCommitDriver : ImmediateSqliteDriver;
    const driver = new Driver(this.sqlite, this.busyTimeoutMs, this.cached);
    this.driver = driver;
    return driver;
  }

  commitStats(): CommitStats {
    return this.driver instanceof GroupCommitDriver ? { ...this.driver.group.stats } : { batches: 0, transactions: 0, commitSeconds: 0 };
  }
}

const STATEMENT_CACHE_SIZE = 500;
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Kysely prepares every statement anew; preparing costs about as much as running a simple
 * query. This wrapper caches statements by SQL text (with the object Kysely calls, so a run
 * creates no closures: tsx wraps each one it creates to keep its name). A cached statement
 * cannot serve two iterations at once, so streamed reads (`iterate`) always prepare their own.
 */
export function withStatementCache(sqlite: BetterSqlite3.Database, stats: QueryStats = { statements: 0, compiles: 0 }): SqliteDatabase {
  type Cached = ReturnType<SqliteDatabase['prepare']>;
  const cache = new Map<string, Cached>();
  const wrap = (sql: string, stmt: BetterSqlite3.Statement): Cached => ({
    reader: stmt.reader,
    // better-sqlite3 binds an array's elements as the anonymous parameters.
    all: (parameters: ReadonlyArray<unknown>) => {
      stats.statements++;
      return stmt.all(parameters as unknown[]);
    },
    run: (parameters: ReadonlyArray<unknown>) => {
      stats.statements++;
      return stmt.run(parameters as unknown[]);
    },
    iterate: (parameters: ReadonlyArray<unknown>) => {
      stats.statements++;
      return sqlite.prepare(sql).iterate(parameters as unknown[]);
    },
  });
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let cached = cache.get(sql);
      if (!cached) {
        cached = wrap(sql, sqlite.prepare(sql));
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        cache.set(sql, cached);
      }
      return cached;
    },
  };
}

/** Opens a better-sqlite3 connection with the house pragmas. */
export function openSqlite(file: string, options: OpenOptions = {}): BetterSqlite3.Database {
  const sqlite = new BetterSqlite3(file);
  // busy_timeout first: switching a new file to WAL needs the lock another process may hold.
  sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
  // A new file keeps a free-page list that `promo vacuum` can hand back to the disk in small
  // steps while the server runs; the mode can only be chosen before the first table exists.
  if (sqlite.pragma('page_count', { simple: true }) === 0) sqlite.pragma('auto_vacuum = INCREMENTAL');
  sqlite.pragma('journal_mode = WAL');
  // After a checkpoint that lets the WAL restart, the file is cut back to this size instead
  // of staying as large as its largest burst.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  // 64 MiB of page cache per connection instead of SQLite's 2 MiB default: list pages of
  // large catalogs and feeds stay in memory (measured: collection page 18 ms -> 12 ms).
  sqlite.pragma('cache_size = -65536');
  return sqlite;
}

/**
 * Counts the queries Kysely compiles: it hands each built query to its plugins once, on
 * compiling it; a query compiled beforehand (db/query-template.ts) runs without passing here.
 */
const compileCounter = (stats: QueryStats): KyselyPlugin => ({
  transformQuery(args) {
    stats.compiles++;
    return args.node;
  },
  transformResult: (args) => Promise.resolve(args.result),
});

/** Opens the database file for Kysely: pragmas, IMMEDIATE transactions, statement cache. */
export function openDatabase(file: string, options: OpenOptions = {}): DatabaseHandle {
  const sqlite = openSqlite(file, options);
  const stats: QueryStats = { statements: 0, compiles: 0 };
  const dialect = new ImmediateSqliteDialect(sqlite, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, options.groupCommit ?? false, stats);
  const db = new Kysely<Database>({ dialect, plugins: [compileCounter(stats)] });
  return { db, sqlite, commitStats: () => dialect.commitStats(), queryStats: () => ({ ...stats }), close: () => db.destroy() };
}

/**
 * Copies the WAL into the database and lets it restart at zero bytes, when no reader holds
 * it (false then: it stays, bounded by journal_size_limit). The copy runs PASSIVE first,
 * beside other writers; TRUNCATE, which holds writers off while it runs, then has little
 * left to do. Run off the request thread: a large WAL takes a while to copy.
 */
export function truncateWal(sqlite: BetterSqlite3.Database): boolean {
  sqlite.pragma('wal_checkpoint(PASSIVE)');
  const [row] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
  return (row?.busy ?? 1) === 0;
}
