import { Worker } from 'node:worker_threads';
import type { Deps, WholeWrites } from '../app/deps.js';
import type { LogLevel } from '../app/logger.js';
import { pendingFirstWrite } from '../db/sqlite/first-write.js';
import type { CommitStats } from '../db/sqlite/group-commit.js';
import { sqliteEngineOf } from '../db/sqlite/engine.js';
import { abandonTurn } from '../db/sqlite/writer-turn.js';
import { rebuilt, type WriterReply, type WriterRequest } from './writer-thread.protocol.js';

const ENTRY = new URL('./writer-thread.worker.mjs', import.meta.url);
const WRITER_SLOT = 1;

/**
 * The writer thread (docs/architecture.md, "The writer thread"; issue 28): under `serve` on
 * SQLite, the whole write operations of `deps.writes` (root/write-operations.ts: a redemption)
 * run on a thread of their own, with their own writer connection, statements, events and
 * COMMIT. The main thread keeps HTTP, authentication, the body's check, reads and every other
 * write; the two writers take turns by batch (db/sqlite/writer-turn.ts), and the main thread
 * waits for its turn without blocking. On one thread, a redemption's HTTP and answer and the
 * writer's work queue behind each other; here they overlap on two cores.
 *
 * On SQLite only: PostgreSQL's servers already write side by side. The thread starts at the first operation (a server that never redeems never loads it); until
 * it answers, and if it ever stops, operations run on the main thread as before. Its group
 * commit's figures are added to the engine's for /metrics.
 */
export function useWriterThread(deps: Deps, logLevel: LogLevel): void {
  // PostgreSQL has many writers already: its servers' transactions run side by side.
  if (!('sqlite' in deps.engine)) return;
  const engine = sqliteEngineOf(deps.engine);
  const here: WholeWrites = deps.writes;
  const pending = new Map<number, (reply: WriterReply) => void>();
  const threadCommits: CommitStats = { batches: 0, transactions: 0, commitSeconds: 0, transactionSeconds: 0 };
  let worker: Worker | null = null;
  let ready = false;
  let stopping = false;
  let lastId = 0;

  const send = (request: Omit<WriterRequest, 'id'>): Promise<WriterReply> =>
    new Promise((resolve) => {
      const id = ++lastId;
      pending.set(id, resolve);
      (worker as Worker).postMessage({ ...request, id });
    });

  function start(): void {
    worker = new Worker(ENTRY, {
      workerData: { dbFile: engine.file, logLevel, writeIntent: engine.writeIntent, writerTurn: engine.writerTurn },
    });
    worker.on('message', (reply: WriterReply) => {
      if (reply.id === 0) ready = true;
      if (reply.commits) Object.assign(threadCommits, reply.commits);
      pending.get(reply.id)?.(reply);
      pending.delete(reply.id);
    });
    worker.on('error', (error) => deps.log.error('writer thread failed', error));
    worker.on('exit', (code) => {
      ready = false;
      // A thread that ended mid-batch must not leave the process's writer turn taken.
      abandonTurn(engine.writerTurn, WRITER_SLOT);
      if (!stopping) deps.log.error('writer thread stopped; writes run on the main thread', undefined, { code });
      const message = { internal: { message: `stopped (exit code ${code}) before answering` } };
      for (const [id, resolve] of pending) resolve({ id, error: message });
      pending.clear();
    });
  }

  async function inThread(operation: string, args: unknown[]): Promise<string> {
    const first = pendingFirstWrite();
    const firstWrite = first && !first.done ? first.statement() : undefined;
    const reply = await send({
      operation,
      args,
      firstWrite: firstWrite && { sql: firstWrite.sql, parameters: firstWrite.parameters },
    });
    if (first && reply.firstWriteDone) first.done = true;
    if (reply.error === undefined) return reply.text as string;
    const error = rebuilt(reply.error);
    throw reply.firstWriteRefused && first ? first.refusal(error) : error;
  }

  deps.writes = {
    run(operation, args) {
      if (!worker && !stopping) start();
      return ready ? inThread(operation, args) : here.run(operation, args);
    },
  };
  const stats = engine.stats.bind(engine);
  engine.stats = () => {
    const figures = stats();
    const sum = (key: keyof CommitStats) => figures.commits[key] + threadCommits[key];
    return {
      ...figures,
      commits: {
        batches: sum('batches'),
        transactions: sum('transactions'),
        commitSeconds: sum('commitSeconds'),
        transactionSeconds: sum('transactionSeconds'),
      },
    };
  };
  deps.onClose.push(async () => {
    stopping = true;
    if (!worker) return;
    if (ready) await send({ close: true });
    await worker.terminate();
  });
}
