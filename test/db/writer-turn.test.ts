import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/sqlite/connect.js';
import { abandonTurn, createWriterTurn, WriterTurn } from '../../src/db/sqlite/writer-turn.js';
import { createDeps } from '../../src/root/create-deps.js';
import { freshDbFile } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

/** Whether `promise` has settled after the event loop turned once (timers included). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 5));
  return done;
}

/**
 * A worker thread that takes slot 1 of `buffer`, holds it `holdMs` asleep (Atomics.wait: the
 * thread is blocked, as a writer in its COMMIT is), then gives it back; it says when it holds it.
 */
function holdInThread(buffer: SharedArrayBuffer, holdMs: number, exitHolding = false): Promise<Worker> {
  const source = `
    const { workerData, parentPort } = require('node:worker_threads');
    const words = new Int32Array(workerData.buffer);
    const ticket = Atomics.add(words, 0, 1);
    Atomics.store(words, 4, ticket + 1);
    while (Atomics.load(words, 1) !== ticket) Atomics.wait(words, 1, Atomics.load(words, 1), 10);
    parentPort.postMessage('holding');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
    if (!workerData.exitHolding) {
      Atomics.store(words, 4, 0);
      Atomics.add(words, 1, 1);
      Atomics.notify(words, 1);
    }`;
  const worker = new Worker(source, { eval: true, workerData: { buffer, holdMs, exitHolding } });
  return new Promise((resolve) => worker.once('message', () => resolve(worker)));
}

describe('the writer turn', sqliteOnly("SQLite's one writer"), () => {
  it('serves one holder at a time, first come first served', async () => {
    const buffer = createWriterTurn();
    const [a, b, c] = [0, 1, 2].map((slot) => new WriterTurn(buffer, slot)) as [WriterTurn, WriterTurn, WriterTurn];
    const order: string[] = [];
    await a.take();
    const bTurn = b.take().then(() => order.push('b'));
    const cTurn = c.take().then(() => order.push('c'));
    assert.equal(await settled(bTurn), false, 'b waits while a holds the turn');
    a.give();
    await bTurn;
    assert.equal(await settled(cTurn), false, 'c waits while b holds it');
    b.give();
    await cTurn;
    c.give();
    assert.deepEqual(order, ['b', 'c']);
    await a.take(); // free again: at once
    a.give();
  });

  it('lets the waiting thread run its event loop while another thread holds the turn', async () => {
    const buffer = createWriterTurn();
    const worker = await holdInThread(buffer, 300);
    const started = performance.now();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const main = new WriterTurn(buffer, 0);
    await main.take();
    clearInterval(timer);
    main.give();
    assert.ok(performance.now() - started >= 250, 'the turn came only after the other thread gave it');
    assert.ok(ticks >= 10, `timers ran while waiting (${ticks} ticks)`);
    await worker.terminate();
  });

  it('frees the turn of a thread that ended holding it, and skips the ticket of one that ended waiting', async () => {
    const buffer = createWriterTurn();
    const worker = await holdInThread(buffer, 0, true);
    await new Promise((resolve) => worker.once('exit', resolve));
    const main = new WriterTurn(buffer, 0);
    const waiting = main.take();
    assert.equal(await settled(waiting), false, 'the dead thread still holds it');
    abandonTurn(buffer, 1);
    await waiting;

    // Slot 2 takes a ticket behind main's turn (as take does: NEXT, then its slot) and "dies" waiting:
    // main's give must pass the turn on to slot 3.
    const words = new Int32Array(buffer);
    Atomics.store(words, 3 + 2, Atomics.add(words, 0, 1) + 1);
    const next = new WriterTurn(buffer, 3).take();
    abandonTurn(buffer, 2);
    main.give();
    await next;
  });

  it('makes two group-committing connections of a process take turns by batch, without SQLITE_BUSY', async () => {
    const file = freshDbFile();
    await createDeps({ dbFile: file }).close(); // the schema
    const first = openDatabase(file, { groupCommit: true, busyTimeoutMs: 0 });
    const second = openDatabase(file, {
      groupCommit: true,
      busyTimeoutMs: 0,
      writerTurn: { buffer: first.writerTurn, slot: 1 },
    });
    const insert = (db: typeof first.db, name: string) =>
      db
        .transaction()
        .execute((trx) =>
          sql`INSERT INTO api_keys (app_id, kind, name, token_hash, created_at) VALUES (${name}, 'server', ${name}, 'h', 't')`.execute(
            trx,
          ),
        );
    // With a busy timeout of 0, a connection that met the other's open batch at SQLite's lock would fail at once.
    await Promise.all(Array.from({ length: 40 }, (_, i) => insert(i % 2 === 0 ? first.db : second.db, `key-${i}`)));
    const { n } = first.sqlite.prepare('SELECT count(*) AS n FROM api_keys').get() as { n: number };
    assert.equal(n, 40);
    assert.ok(first.commitStats().batches >= 1 && second.commitStats().batches >= 1);
    await second.close();
    await first.close();
  });
});
