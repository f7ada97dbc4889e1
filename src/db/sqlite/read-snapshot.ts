import type BetterSqlite3 from 'better-sqlite3';

/**
 * The reader connection's reads of one tick share one read transaction (docs/performance.md "Hot paths").
 * Outside a transaction, each SELECT would take a WAL snapshot of its own (file and shared-
 * memory locks taken and released: ~2 us a statement); a request's reads (the key check, the
 * voucher, its assignments) mostly run in one tick, one after another, so the first read of a
 * tick begins a read transaction and the end of the tick (after every microtask that tick
 * queued) commits it.
 *
 * What the reads see is unchanged:
 * - another process's (or worker thread's) commit reaches the next tick's reads: a snapshot
 *   never outlives the tick that took it, and everything a tick runs was asked for before the
 *   snapshot was taken (its request's bytes, its timer, its message arrived first), so it may
 *   be ordered before that commit;
 * - this process's own writer calls `writerCommitted` right after each COMMIT (the driver's,
 *   group commit's, a write outside a transaction), which ends the snapshot, so a read after
 *   one's own write sees it, in the same tick too;
 * - while a streamed read (an iterator) is open on the reader, reads run in their own
 *   statements, as before.
 */
export class ReadSnapshot {
  private open = false;
  private streams = 0;
  /** The snapshot's `PRAGMA data_version`, once read (stable for as long as the snapshot lives). */
  private version: number | undefined;
  private readonly begin: BetterSqlite3.Statement;
  private readonly commit: BetterSqlite3.Statement;

  constructor(private readonly sqlite: BetterSqlite3.Database) {
    this.begin = sqlite.prepare('begin');
    this.commit = sqlite.prepare('commit');
  }

  /** Before a read on the reader connection: the tick's snapshot, begun if none is. */
  enter(): void {
    if (this.open || this.streams > 0) return;
    this.begin.run();
    this.open = true;
    queueMicrotask(this.scheduleEnd);
  }

  /**
   * The data_version of the tick's snapshot (db/versioned-cache.ts): read once per snapshot,
   * since no commit can reach a snapshot once taken. Without one (a streamed read runs), each
   * call reads it anew.
   */
  dataVersion(read: () => number): number {
    this.enter();
    if (!this.open) return read();
    return (this.version ??= read());
  }

  /**
   * A tick runs its process.nextTick queue before its microtasks: a nextTick queued from sync
   * code (an I/O callback's) would end the snapshot before the request's awaits resume.
   * Queued from a microtask, it runs once the microtask queue is empty.
   */
  private readonly scheduleEnd = (): void => {
    process.nextTick(this.end);
  };

  /** Ends the snapshot, if one is open: the next read takes a new one. */
  readonly end = (): void => {
    if (!this.open) return;
    this.open = false;
    this.version = undefined;
    if (!this.sqlite.open) return;
    try {
      if (this.sqlite.inTransaction) this.commit.run();
    } catch {
      // A read transaction holds no changes: when COMMIT cannot run, ROLLBACK ends it the same.
      if (this.sqlite.inTransaction) this.sqlite.exec('rollback');
    }
  };

  /** After a COMMIT by this process's writer. */
  readonly writerCommitted = this.end;

  /** Around a streamed read: no snapshot while it iterates (it holds its own). */
  streamStarted(): void {
    this.end();
    this.streams++;
  }

  streamEnded(): void {
    this.streams--;
  }
}
