import { setImmediate as yieldToIo } from 'node:timers/promises';
import type BetterSqlite3 from 'better-sqlite3';
import {
  SelectQueryNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';
import { runFirstWrite } from './first-write.js';
import type { TransactionRunner } from '../direct-transactions.js';
import type { Batch, GroupCommit } from './group-commit.js';
import type { ReadSnapshot } from './read-snapshot.js';

/**
 * promo's Kysely driver for better-sqlite3 (DESIGN 3):
 *
 * - Transactions begin IMMEDIATE (through `begin`), one at a time on the writer connection,
 *   in the order they asked (a FIFO mutex).
 * - With group commit, each transaction is a savepoint of a shared batch (group-commit.ts) and
 *   `releaseConnection` (which Kysely awaits before `execute` returns) waits for the batch's
 *   COMMIT, with the writer already free for the next transaction to join the batch.
 * - A transaction yields to the event loop once before it begins, so requests that need no
 *   writer (`/health`, reads) are answered between transactions instead of after a whole
 *   queue of them.
 * - With a reader connection, SELECTs outside transactions run there: they never wait for the
 *   writer, and see only committed data. Everything else (raw SQL included) runs on the writer.
 */
export interface DriverOptions {
  writer: SqliteDatabase;
  reader: SqliteDatabase | null;
  /** Takes the write lock: BEGIN IMMEDIATE, waiting for other processes. */
  begin: () => void;
  /** The raw writer connection, for COMMIT, ROLLBACK and the first-write hook. */
  sqlite: BetterSqlite3.Database;
  group: GroupCommit | null;
  /** The reader's per-tick read transaction (db/sqlite/read-snapshot.ts); null without a reader. */
  snapshot: ReadSnapshot | null;
}

/** A FIFO lock: the writer serves one transaction (or one write outside a transaction) at a time. */
export class WriterMutex {
  private readonly queue: Array<() => void> = [];
  held = false;

  lock(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  unlock(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.held = false;
  }
}

function run(db: SqliteDatabase, query: CompiledQuery): QueryResult<unknown> {
  const statement = db.prepare(query.sql);
  if (statement.reader) return { rows: statement.all(query.parameters) };
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** One acquisition by Kysely: a single query, or a whole transaction. */
class Connection implements DatabaseConnection {
  inTransaction = false;
  /** The batch its writes joined: released only once that batch is on disk. */
  joined: Batch | null = null;

  constructor(private readonly driver: PromoDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, query) as Promise<QueryResult<R>>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('Only SELECT queries can be streamed');
    const onReader = !this.inTransaction && this.driver.reader !== null;
    const snapshot = onReader ? this.driver.snapshot : null;
    const db = onReader ? (this.driver.reader as SqliteDatabase) : this.driver.writer;
    snapshot?.streamStarted();
    try {
      for (const row of db.prepare(query.sql).iterate(query.parameters)) yield { rows: [row as R] };
    } finally {
      snapshot?.streamEnded();
    }
  }
}

export class PromoDriver implements Driver {
  readonly mutex = new WriterMutex();
  /** The connection whose transaction is open on the writer, between its BEGIN and its end. */
  private current: Connection | null = null;
  readonly writer: SqliteDatabase;
  readonly reader: SqliteDatabase | null;
  readonly snapshot: ReadSnapshot | null;

  constructor(private readonly options: DriverOptions) {
    this.writer = options.writer;
    this.reader = options.reader;
    this.snapshot = options.snapshot;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Connection(this);
  }

  async beginTransaction(connection: Connection): Promise<void> {
    await this.mutex.lock();
    connection.inTransaction = true;
    try {
      await yieldToIo();
      const { group, sqlite } = this.options;
      await group?.ready();
      if (group) group.begin();
      else this.options.begin();
      runFirstWrite(sqlite, () => (group ? group.rollback() : sqlite.exec('rollback')));
      this.current = connection;
    } catch (error) {
      connection.inTransaction = false;
      this.mutex.unlock();
      throw error;
    }
  }

  async commitTransaction(connection: Connection): Promise<void> {
    this.current = null;
    if (this.options.group) connection.joined = this.options.group.commit();
    else {
      this.options.sqlite.exec('commit');
      this.snapshot?.writerCommitted();
    }
  }

  async rollbackTransaction(): Promise<void> {
    this.current = null;
    if (this.options.group) this.options.group.rollback();
    else this.options.sqlite.exec('rollback');
  }

  async releaseConnection(connection: Connection): Promise<void> {
    if (connection.inTransaction) {
      connection.inTransaction = false;
      this.mutex.unlock();
    }
    const joined = connection.joined;
    connection.joined = null;
    if (joined) await joined.durable;
  }

  /**
   * A runner for the transaction that has just begun (db/direct-transactions.ts): its
   * statements on the writer while it is the open one; undefined afterwards.
   */
  currentTransactionRunner(): TransactionRunner {
    const connection = this.current;
    return (sql, parameters) => {
      if (connection === null || this.current !== connection) return undefined;
      const statement = this.writer.prepare(sql);
      if (statement.reader) return statement.all(parameters);
      statement.run(parameters);
      return [];
    };
  }

  /** A SELECT outside any transaction, on the reader connection (there must be one), in the tick's snapshot. */
  selectOnReader(sql: string, parameters: ReadonlyArray<unknown>): unknown[] {
    this.snapshot?.enter();
    return (this.reader as SqliteDatabase).prepare(sql).all(parameters);
  }

  async execute(connection: Connection, query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (connection.inTransaction) return run(this.writer, query);
    if (this.reader && SelectQueryNode.is(query.query))
      return { rows: this.selectOnReader(query.sql, query.parameters) };
    // A write (or raw SQL) outside a transaction: its turn on the writer; inside an open batch, it waits for that batch.
    await this.mutex.lock();
    try {
      const { group } = this.options;
      const batch = group?.openBatch ?? null;
      if (batch) {
        connection.joined = batch;
        batch.kept = true;
        return run(this.writer, query);
      }
      const result = group ? await group.inTurn(() => run(this.writer, query)) : run(this.writer, query);
      // Outside a batch the write committed on its own.
      this.snapshot?.writerCommitted();
      return result;
    } finally {
      this.mutex.unlock();
    }
  }

  /**
   * Runs `fn` on the writer while no transaction is open on it: holding the writer's turn, once
   * the batch that waits for its COMMIT is committed, and with the reader's snapshot ended. A
   * checkpoint needs that: inside a transaction (a batch waiting for its COMMIT is one) SQLite
   * fails it at once with SQLITE_LOCKED, and a snapshot of this thread's reader would keep a
   * TRUNCATE waiting for the busy timeout while nothing can end it.
   */
  async betweenTransactions<T>(fn: () => T): Promise<T> {
    await this.mutex.lock();
    try {
      const { group } = this.options;
      await group?.drain();
      this.snapshot?.end();
      return group ? await group.inTurn(fn) : fn();
    } finally {
      this.mutex.unlock();
    }
  }

  async destroy(): Promise<void> {
    await this.options.group?.drain();
    this.snapshot?.end();
    this.writer.close();
    this.reader?.close();
  }
}
