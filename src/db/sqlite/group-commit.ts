import type BetterSqlite3 from 'better-sqlite3';
import { type CommitStats, noCommits } from '../engine.js';
import type { WriterTurn } from './writer-turn.js';

/**
 * Group commit (DESIGN 3): write transactions that arrive together share one durable COMMIT.
 *
 * The first transaction of a batch opens the real transaction (BEGIN IMMEDIATE) and schedules
 * its COMMIT for the end of the current turn of the event loop (setImmediate); every later
 * transaction runs in its own savepoint inside it. A transaction that fails rolls back only
 * its savepoint; one that succeeds releases its savepoint and waits for the batch's COMMIT
 * before its caller goes on, so no answer is sent before its write is on disk. While one
 * COMMIT waits for the disk, the requests that arrive queue up and form the next batch: the
 * busier the server, the larger the batches.
 *
 * The first transaction needs no savepoint: transactions run one at a time, so while it runs
 * the batch holds nothing else, and its rollback is the batch's ROLLBACK. A savepoint is not
 * free: SQLite copies every page a savepoint first touches into its statement journal, ~5% of
 * a stacked redemption's held time (docs/performance.md). On a quiet server, where each batch
 * is one transaction, no transaction pays it.
 *
 * The COMMIT never runs while a savepoint is open (that would commit half a transaction): a
 * flush that falls due then waits for the transaction to end. While more transactions are
 * queued for the writer (`busy`), the flush waits for them too, up to MAX_BATCH transactions or
 * MAX_WINDOW_MS: the batch then holds everything that arrived while the last one ran.
 *
 * Where two threads of the process write (root/writer-thread.ts), each batch also holds the
 * process's writer turn (writer-turn.ts) from before its BEGIN until its COMMIT: `ready` waits
 * for it without blocking the thread.
 */
export class Batch {
  size = 0;
  /**
   * Whether the batch holds anything to commit: a released savepoint or a write outside any
   * transaction. A batch whose transactions all rolled back (every validation: its pipeline
   * writes the order, then rolls back) ends with ROLLBACK: a COMMIT would write the pages its
   * savepoints touched to the WAL and wait for the disk (measured: ~8 ms against 0.06 ms).
   */
  kept = false;
  readonly openedAt = performance.now();
  readonly durable: Promise<void>;
  settle!: (error?: unknown) => void;

  constructor() {
    this.durable = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // Waiters see the rejection through `durable`; no waiter must not mean an unhandled one.
    this.durable.catch(() => undefined);
  }
}

const SAVEPOINT = 'group_tx';
const MAX_BATCH = 64;
const MAX_WINDOW_MS = 50;

export class GroupCommit {
  private open: Batch | null = null;
  private depth = 0;
  private flushDue = false;
  private scheduled = false;
  private draining = false;
  readonly stats: CommitStats = noCommits();
  private heldSince = 0;
  private holdsTurn = false;
  /** The batch's first transaction runs without a savepoint; true until it ends. */
  private bare = false;
  private readonly savepoint: BetterSqlite3.Statement;
  private readonly release: BetterSqlite3.Statement;
  private readonly rollbackTo: BetterSqlite3.Statement;

  constructor(
    private readonly sqlite: BetterSqlite3.Database,
    /** Takes the write lock: BEGIN IMMEDIATE, waiting for other connections. */
    private readonly beginImmediate: () => void,
    /** Whether another transaction waits for the writer (it would join the batch). */
    private readonly busy: () => boolean = () => false,
    /** Right after each COMMIT (the reader's snapshot ends: db/sqlite/read-snapshot.ts). */
    private readonly committed: () => void = () => {},
    private readonly turn: WriterTurn | null = null,
  ) {
    this.savepoint = sqlite.prepare(`savepoint ${SAVEPOINT}`);
    this.release = sqlite.prepare(`release ${SAVEPOINT}`);
    this.rollbackTo = sqlite.prepare(`rollback to ${SAVEPOINT}`);
  }

  /** Waits for the writer turn before a batch opens; at once while this connection's batch is open. */
  async ready(): Promise<void> {
    if (this.open || this.holdsTurn || !this.turn) return;
    await this.turn.take();
    this.holdsTurn = true;
  }

  /** Runs `write` (a statement outside any transaction, a checkpoint) in the writer's turn when no batch is open. */
  async inTurn<T>(write: () => T): Promise<T> {
    await this.ready();
    try {
      return write();
    } finally {
      if (!this.open) this.giveTurn();
    }
  }

  /** The batch a write outside any transaction joins, if one is open (it then waits for it too). */
  get openBatch(): Batch | null {
    return this.depth === 0 ? this.open : null;
  }

  begin(): void {
    if (!this.open) {
      try {
        this.beginImmediate();
      } catch (error) {
        this.giveTurn();
        throw error;
      }
      this.open = new Batch();
      this.schedule();
      this.bare = true;
    } else this.savepoint.run();
    if (this.depth === 0) this.heldSince = performance.now();
    this.depth += 1;
  }

  /** Whether the running transaction is the outermost one, begun without a savepoint (it opened its batch). */
  private get runsBare(): boolean {
    return this.bare && this.depth === 1;
  }

  /** Keeps the transaction's writes in the batch; the caller waits for the batch's `durable`. */
  commit(): Batch {
    const batch = this.open as Batch;
    if (this.runsBare) this.bare = false;
    else this.release.run();
    batch.size += 1;
    batch.kept = true;
    this.end();
    return batch;
  }

  rollback(): void {
    if (this.runsBare) {
      // The batch holds this transaction alone: it ends with it, and the next one opens another.
      const batch = this.open as Batch;
      this.open = null;
      this.bare = false;
      if (this.sqlite.inTransaction) this.sqlite.exec('rollback');
      this.giveTurn();
      batch.settle();
    } else {
      this.rollbackTo.run();
      this.release.run();
    }
    this.end();
  }

  /** Commits the open batch now, or as soon as its running transaction ends (on close). */
  async drain(): Promise<void> {
    const batch = this.open;
    if (!batch) return;
    this.draining = true;
    this.tryFlush();
    await batch.durable.catch(() => undefined);
  }

  private giveTurn(): void {
    if (!this.holdsTurn) return;
    this.holdsTurn = false;
    this.turn?.give();
  }

  private end(): void {
    this.depth -= 1;
    if (this.depth === 0) this.stats.transactionSeconds += (performance.now() - this.heldSince) / 1000;
    if (this.depth === 0 && this.flushDue) {
      this.flushDue = false;
      this.tryFlush();
    }
  }

  /** One pending look at the open batch, at the end of this turn of the event loop. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.tryFlush();
    });
  }

  private tryFlush(): void {
    const batch = this.open;
    if (!batch) return;
    if (this.depth > 0) {
      this.flushDue = true; // the running transaction's end looks again
      return;
    }
    if (!this.draining && this.busy() && batch.size < MAX_BATCH && performance.now() - batch.openedAt < MAX_WINDOW_MS) {
      this.schedule();
      return;
    }
    this.flush();
  }

  private flush(): void {
    this.flushDue = false;
    this.draining = false;
    const batch = this.open;
    if (!batch) return;
    this.open = null;
    if (!batch.kept) {
      this.sqlite.exec('rollback');
      this.giveTurn();
      batch.settle();
      return;
    }
    const started = performance.now();
    try {
      this.sqlite.exec('commit');
    } catch (error) {
      if (this.sqlite.inTransaction) this.sqlite.exec('rollback');
      this.giveTurn();
      batch.settle(error);
      return;
    }
    this.giveTurn();
    this.committed();
    this.stats.batches += 1;
    this.stats.transactions += batch.size;
    this.stats.commitSeconds += (performance.now() - started) / 1000;
    batch.settle();
  }
}
