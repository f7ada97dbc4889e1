import BetterSqlite3 from 'better-sqlite3';
import {
  Kysely,
  SqliteDialect,
  type Driver,
  type KyselyConfig,
  type KyselyPlugin,
  type SqliteDatabase,
  type Transaction,
  type TransactionBuilder,
} from 'kysely';
import type { Database } from '../database.js';
import { registerDirectReads } from '../direct-reads.js';
import { isDatabaseError } from '../errors.js';
import './errors.js';
import { registerTransaction } from '../direct-transactions.js';
import { ReadSnapshot } from './read-snapshot.js';
import { PromoDriver } from './driver.js';
import { addCommits, type CommitStats, noCommits, type QueryStats } from '../engine.js';
import { GroupCommit } from './group-commit.js';
import { withStatementCache } from './statement-cache.js';
import { announceWait, createWriteIntent, endWait } from './write-intent.js';
import { createWriterTurn, WriterTurn } from './writer-turn.js';
import { sleepSync } from '../../lib/thread-wait.js';

export interface OpenOptions {
  /** FULL for the API (a committed redemption survives a power cut); NORMAL for bulk workers. */
  synchronous?: 'FULL' | 'NORMAL';
  /** Milliseconds a writer waits for the lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /**
   * Transactions that arrive together share one COMMIT (db/sqlite/group-commit.ts): the API's
   * connection. Bulk workers commit portions of their own and leave it off.
   */
  groupCommit?: boolean;
  /**
   * SELECTs outside transactions on a second, query-only connection: reads never wait for the
   * writer and see only committed data (the API's connection).
   */
  separateReads?: boolean;
  /**
   * The WAL's size past which a commit on this connection checkpoints (SQLite's
   * wal_autocheckpoint, here in bytes; 0: never). SQLite's default is about 4 MiB.
   */
  autocheckpointBytes?: number;
  /**
   * Another thread's write intent to share (the writer thread shares the main thread's, so the
   * job workers let its writes in too); a new one otherwise.
   */
  writeIntent?: SharedArrayBuffer;
  /**
   * The process's writer turn (db/sqlite/writer-turn.ts) and this connection's slot in it, for
   * a second group-committing connection in the process (the writer thread's); a new turn with
   * slot 0 otherwise.
   */
  writerTurn?: { buffer: SharedArrayBuffer; slot: number };
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  sqlite: BetterSqlite3.Database;
  /** Group commit's figures, with those of the connections added by `addCommitFigures`; zeros without any. */
  commitStats(): CommitStats;
  /**
   * Counts another connection's group commit as this one's (the writer thread's:
   * root/writer-thread.ts): the one writer's work, whichever connection of the process did it,
   * for /metrics and for the job runner's look at whether the API writes.
   */
  addCommitFigures(figures: () => CommitStats): void;
  /** Where this connection's transactions say they wait for the write lock (db/sqlite/write-intent.ts). */
  writeIntent: SharedArrayBuffer;
  /** The writer turn its group commit takes (db/sqlite/writer-turn.ts), to hand to a writer thread. */
  writerTurn: SharedArrayBuffer;
  queryStats(): QueryStats;
  /** Runs `fn` on the writer with no transaction open on it (a checkpoint: db/sqlite/driver.ts). */
  betweenTransactions<T>(fn: () => T): Promise<T>;
  close(): Promise<void>;
}

/**
 * BEGIN IMMEDIATE, waiting for the write lock by polling every millisecond. SQLite's own busy
 * handler sleeps longer and longer between tries (up to 100 ms), so a writer that has waited
 * one bulk portion sleeps through the short gap the worker leaves before its next portion and
 * then waits a whole second portion. Polling takes the lock within a millisecond of its
 * release; meanwhile `intent` tells this process's job workers that a write waits
 * (db/sqlite/write-intent.ts): they end their portion and let it in. `onWait` ends this process's
 * read snapshot of the tick (db/sqlite/read-snapshot.ts): a snapshot held while waiting would keep the
 * workers from copying the WAL back past it and from restarting it. busy_timeout still covers
 * statements outside transactions.
 */
function beginImmediate(
  sqlite: BetterSqlite3.Database,
  timeoutMs: number,
  intent: SharedArrayBuffer,
  onWait: () => void,
): void {
  // Not a prepared statement: SQLite sets busy_timeout while it compiles the pragma, so a
  // statement prepared once would set it then and never again (measured: a racing process then
  // sleeps in SQLite's handler and is starved, test/concurrency/reward-stock-race.test.ts).
  sqlite.pragma('busy_timeout = 0');
  let waiting = false;
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        sqlite.exec('begin immediate');
        return;
      } catch (error) {
        if (!isDatabaseError(error, 'busy') || Date.now() >= deadline) throw error;
        if (!waiting) {
          announceWait(intent);
          onWait();
        }
        waiting = true;
        sleepSync(1);
      }
    }
  } finally {
    if (waiting) endWait(intent);
    sqlite.pragma(`busy_timeout = ${timeoutMs}`);
  }
}

/**
 * Kysely's dialect with promo's driver (db/sqlite/driver.ts). Kysely's own SQLite driver begins
 * transactions DEFERRED: one that reads and then writes fails at once with SQLITE_BUSY_SNAPSHOT
 * when another connection wrote in between, without honouring busy_timeout. IMMEDIATE takes
 * the write lock up front, so the transaction waits its turn instead.
 */
class PromoDialect extends SqliteDialect {
  constructor(private readonly driver: PromoDriver) {
    super({ database: driver.writer });
  }

  override createDriver(): Driver {
    return this.driver;
  }
}

export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
const DEFAULT_BUSY_TIMEOUT_MS = 5000;

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
  // Space that a delete or an update frees inside a page is zeroed, so old versions of a row
  // (a customer's earlier email) do not linger in the file; FAST costs no extra I/O. A
  // permanent deletion turns it fully ON for its transaction (freed pages zeroed too).
  sqlite.pragma('secure_delete = FAST');
  sqlite.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  // 64 MiB of page cache per connection instead of SQLite's 2 MiB default: list pages of
  // large catalogs and feeds stay in memory (measured: collection page 18 ms -> 12 ms).
  sqlite.pragma('cache_size = -65536');
  // Statement journals (a trigger's or a savepoint's undo log) and temporary b-trees stay in
  // memory: on a file, every insert into a table with a counting trigger wrote one (measured:
  // raw inserts into redemptions 8-11k rows/s with temp files, 12-15k in memory).
  sqlite.pragma('temp_store = MEMORY');
  if (options.autocheckpointBytes !== undefined) {
    const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
    sqlite.pragma(`wal_autocheckpoint = ${Math.ceil(options.autocheckpointBytes / pageSize)}`);
  }
  return sqlite;
}

/** A second connection for reads: query-only, with a smaller page cache of its own. */
function openReader(file: string, busyTimeoutMs: number): BetterSqlite3.Database {
  const reader = new BetterSqlite3(file);
  reader.pragma(`busy_timeout = ${busyTimeoutMs}`);
  reader.pragma('query_only = ON');
  reader.pragma('cache_size = -16384');
  return reader;
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

/**
 * Kysely, with each transaction it begins registered for db/direct-transactions.ts. The
 * callback runs right after the driver began the transaction (the writer is its own until it
 * ends), so the driver's open transaction is this one.
 */
class PromoKysely extends Kysely<Database> {
  constructor(
    config: KyselyConfig,
    private readonly promoDriver: PromoDriver,
  ) {
    super(config);
  }

  override transaction(): TransactionBuilder<Database> {
    return this.registered(super.transaction());
  }

  /** `builder`, whose transactions register their direct runner; so is the builder an isolation level gives (ignored: SQLite's one writer is serial). */
  private registered(builder: TransactionBuilder<Database>): TransactionBuilder<Database> {
    const execute = builder.execute.bind(builder);
    const setIsolationLevel = builder.setIsolationLevel.bind(builder);
    const driver = this.promoDriver;
    builder.execute = <T>(callback: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
      execute((trx) => {
        registerTransaction(trx, driver.currentTransactionRunner());
        return callback(trx);
      });
    builder.setIsolationLevel = (level) => this.registered(setIsolationLevel(level));
    return builder;
  }
}

/** Opens the database file for Kysely: pragmas, IMMEDIATE transactions, statement caches, group commit. */
export function openDatabase(file: string, options: OpenOptions = {}): DatabaseHandle {
  const sqlite = openSqlite(file, options);
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const writeIntent = options.writeIntent ?? createWriteIntent();
  const writerTurn = options.writerTurn?.buffer ?? createWriterTurn();
  const begin = () => beginImmediate(sqlite, busyTimeoutMs, writeIntent, () => snapshot?.end());
  let driver: PromoDriver | null = null;
  const readerSqlite = options.separateReads ? openReader(file, busyTimeoutMs) : null;
  const snapshot = readerSqlite ? new ReadSnapshot(readerSqlite) : null;
  const group = options.groupCommit
    ? new GroupCommit(
        sqlite,
        begin,
        () => driver?.mutex.held ?? false,
        snapshot?.writerCommitted,
        new WriterTurn(writerTurn, options.writerTurn?.slot ?? 0),
      )
    : null;
  const stats: QueryStats = { statements: 0, compiles: 0 };
  const reader = readerSqlite ? withStatementCache(readerSqlite, stats) : null;
  driver = new PromoDriver({ writer: withStatementCache(sqlite, stats), reader, begin, sqlite, group, snapshot });
  const db = new PromoKysely({ dialect: new PromoDialect(driver), plugins: [compileCounter(stats)] }, driver);
  if (readerSqlite) {
    const version = readerSqlite.prepare('pragma data_version').pluck();
    const onReader = driver;
    registerDirectReads(db, {
      dataVersion: () =>
        (snapshot as ReadSnapshot).dataVersion(() => {
          stats.statements++;
          return version.get() as number;
        }),
      select: (sql, parameters) => onReader.selectOnReader(sql, parameters),
    });
  }
  const figures: Array<() => CommitStats> = group ? [() => group.stats] : [];
  const commitStats = (): CommitStats => figures.reduce((sum, of) => addCommits(sum, of()), noCommits());
  const writer = driver;
  return {
    db,
    sqlite,
    commitStats,
    addCommitFigures: (of) => void figures.push(of),
    writeIntent,
    writerTurn,
    queryStats: () => ({ ...stats }),
    betweenTransactions: (fn) => writer.betweenTransactions(fn),
    close: () => db.destroy(),
  };
}
