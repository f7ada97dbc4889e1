import { parentPort, workerData } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import { createLogger } from '../app/logger.js';
import type { FirstWrite } from '../db/engine.js';
import { sqliteEngineOf } from '../db/sqlite/engine.js';
import { createDeps } from './create-deps.js';
import { crossed, type WriterReply, type WriterRequest, type WriterThreadSetup } from './writer-thread.protocol.js';
import { runWriteOperation } from './write-operations.js';

/**
 * The writer thread (root/writer-thread.ts): Deps of its own on the server's database file, a
 * writer connection with group commit in slot 1 of the process's writer turn and the main
 * thread's write intent, and a reader for what a redemption reads before its transaction. It
 * runs whole write operations, one transaction each, batched as the main thread's are.
 */
const setup = workerData as WriterThreadSetup;
const port = parentPort!;
const deps = createDeps({
  dbFile: setup.dbFile,
  migrate: false,
  log: createLogger({ level: setup.logLevel }),
  writeIntent: setup.writeIntent,
  writerTurn: { buffer: setup.writerTurn, slot: 1 },
});

const engine = sqliteEngineOf(deps.engine);

/** The main thread's first write, by its SQL: a refusal is told apart from the operation's own errors. */
class FirstWriteRefused {
  constructor(readonly error: unknown) {}
}

async function answer(request: Extract<WriterRequest, { operation: string }>): Promise<WriterReply> {
  const { id, operation, args, firstWrite } = request;
  const first: FirstWrite | null = firstWrite
    ? { done: false, statement: () => firstWrite as CompiledQuery, refusal: (error) => new FirstWriteRefused(error) }
    : null;
  try {
    const run = () => runWriteOperation(deps, operation, args);
    const text = first ? await deps.engine.withFirstWrite(first, run) : await run();
    return { id, text, firstWriteDone: first?.done };
  } catch (error) {
    const refused = error instanceof FirstWriteRefused;
    return {
      id,
      error: crossed(refused ? error.error : error),
      firstWriteRefused: refused,
      firstWriteDone: first?.done,
    };
  }
}

port.on('message', async (request: WriterRequest) => {
  if ('close' in request) {
    await deps.close();
    port.postMessage({ id: request.id });
    return;
  }
  const reply = await answer(request);
  reply.commits = engine.commitStats();
  port.postMessage(reply);
});
port.postMessage({ id: 0 });
