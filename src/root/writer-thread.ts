import { Worker } from 'node:worker_threads';
import type { Deps, WholeWrites } from '../app/deps.js';
import type { LogLevel } from '../app/logger.js';
import { pendingFirstWrite } from '../db/sqlite/first-write.js';
import { addCommits, type CommitStats, noCommits } from '../db/engine.js';
import { sqliteEngineOf, type SqliteEngine } from '../db/sqlite/engine.js';
import { abandonTurn } from '../db/sqlite/writer-turn.js';
import { rebuilt, type WriterReply, type WriterRequest } from './writer-thread.protocol.js';

const ENTRY = new URL('./writer-thread.worker.mjs', import.meta.url);
const WRITER_SLOT = 1;

/**
 * The writer thread (docs/architecture.md, "The writer thread"; issue 28): under `serve` on
 * SQLite, the whole write operations of `deps.writes` (root/write-operations.ts: a redemption,
 * a new order) run on a thread of their own, with their own writer connection, statements,
 * events and COMMIT. The main thread keeps HTTP, authentication, the body's check, reads and
 * every other write; the two writers take turns by batch (db/sqlite/writer-turn.ts), and the
 * main thread waits for its turn without blocking. On one thread, a redemption's HTTP and
 * answer and the writer's work queue behind each other; here they overlap on two cores.
 *
 * On SQLite only: PostgreSQL's servers already write side by side. The thread starts at the
 * first operation (a server that never redeems nor takes an order never loads it); until it
 * answers, operations run on the main thread as before. A thread that stops (a crash) fails
 * the operations it held (500: they may or may not have committed, as with any crash; an
 * Idempotency-Key retry tells) and is started again at the first operation `restartAfterMs`
 * later (a thread that keeps failing costs a start a minute, not one a request); meanwhile
 * operations run on the main thread. Its group
 * commit's figures count as the engine's (/metrics, and the job runner's look at whether the
 * API writes).
 */
export function useWriterThread(
  deps: Deps,
  logLevel: LogLevel,
  { restartAfterMs = 60_000 }: { restartAfterMs?: number } = {},
): WriterThread | null {
  // PostgreSQL has many writers already: its servers' transactions run side by side.
  if (!('sqlite' in deps.engine)) return null;
  const engine = sqliteEngineOf(deps.engine);
  const thread = new WriterThread(deps, engine, logLevel, restartAfterMs);
  deps.writes = { run: (operation, args) => thread.run(operation, args) };
  engine.addCommitFigures(() => thread.commits);
  const stats = engine.stats.bind(engine);
  engine.stats = () => ({ ...stats(), writerThread: { up: thread.up, operations: thread.operations } });
  deps.onClose.push(() => thread.stop());
  return thread;
}

export class WriterThread {
  /** The running thread's group commit, as its last answer reported it. */
  private latest: CommitStats = noCommits();
  /** The commits of threads that stopped: the figures only grow, across restarts (/metrics' counters). */
  private before: CommitStats = noCommits();
  private readonly here: WholeWrites;
  private readonly pending = new Map<number, (reply: WriterReply) => void>();
  private worker: Worker | null = null;
  private ready = false;
  /** Operations the thread has answered. */
  operations = 0;
  private stopping = false;
  private lastId = 0;
  /** When a thread that stopped may be started again (ms since the epoch). */
  private startsAfter = 0;

  constructor(
    private readonly deps: Deps,
    readonly engine: SqliteEngine,
    private readonly logLevel: LogLevel,
    private readonly restartAfterMs: number,
  ) {
    this.here = deps.writes;
  }

  get commits(): CommitStats {
    return addCommits(this.before, this.latest);
  }

  get up(): boolean {
    return this.ready;
  }

  /** Operations sent to the thread and not answered yet. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** The thread itself, once started (what a test ends abruptly, as a crash would). */
  get thread(): Worker | null {
    return this.worker;
  }

  run(operation: string, args: unknown[]): Promise<string> {
    if (!this.worker && !this.stopping && Date.now() >= this.startsAfter) this.start();
    return this.ready ? this.inThread(operation, args) : this.here.run(operation, args);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (!this.worker) return;
    if (this.ready) await this.send({ close: true });
    await this.worker.terminate();
  }

  private send(request: Omit<WriterRequest, 'id'>): Promise<WriterReply> {
    return new Promise((resolve) => {
      const id = ++this.lastId;
      this.pending.set(id, resolve);
      (this.worker as Worker).postMessage({ ...request, id });
    });
  }

  private start(): void {
    const { engine } = this;
    const worker = new Worker(ENTRY, {
      workerData: {
        dbFile: engine.file,
        logLevel: this.logLevel,
        writeIntent: engine.writeIntent,
        writerTurn: engine.writerTurn,
      },
    });
    this.worker = worker;
    worker.on('message', (reply: WriterReply) => {
      if (reply.id === 0) this.ready = true;
      if (reply.commits) {
        this.latest = reply.commits;
        this.operations++;
      }
      this.pending.get(reply.id)?.(reply);
      this.pending.delete(reply.id);
    });
    worker.on('error', (error) => this.deps.log.error('writer thread failed', error));
    worker.on('exit', (code) => this.exited(code));
  }

  private exited(code: number): void {
    this.ready = false;
    this.worker = null;
    this.before = this.commits;
    this.latest = noCommits();
    this.startsAfter = Date.now() + this.restartAfterMs;
    // A thread that ended mid-batch must not leave the process's writer turn taken.
    abandonTurn(this.engine.writerTurn, WRITER_SLOT);
    if (!this.stopping)
      this.deps.log.error('writer thread stopped; writes run on the main thread until it starts again', undefined, {
        code,
        restart_after_ms: this.restartAfterMs,
      });
    const error = { internal: { message: `stopped (exit code ${code}) before answering` } };
    for (const [id, resolve] of this.pending) resolve({ id, error });
    this.pending.clear();
  }

  private async inThread(operation: string, args: unknown[]): Promise<string> {
    const first = pendingFirstWrite();
    const firstWrite = first && !first.done ? first.statement() : undefined;
    const reply = await this.send({
      operation,
      args,
      firstWrite: firstWrite && { sql: firstWrite.sql, parameters: firstWrite.parameters },
    });
    if (first && reply.firstWriteDone) first.done = true;
    if (reply.error === undefined) return reply.text as string;
    const error = rebuilt(reply.error);
    throw reply.firstWriteRefused && first ? first.refusal(error) : error;
  }
}
