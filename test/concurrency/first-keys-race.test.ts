import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { describe, it } from 'node:test';
import { freshDatabase } from '../support/engine.js';
import { openRows } from '../support/sqlite.js';

const STARTS = 4;
const ROUNDS = 2;

interface Created {
  app_id: string;
  kind: string;
}

/** A racer on its own thread and connection (first-keys.worker.ts); resolves once it is ready, with its outcome to come. */
function racer(dbFile: string, go: SharedArrayBuffer): Promise<{ outcome: Promise<Created[]> }> {
  const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL('./first-keys.worker.ts', import.meta.url).href);
  const worker = new Worker(`import(${api}).then(({ register }) => { register(); return import(${entry}); })`, {
    eval: true,
    workerData: { dbFile, go },
  });
  return new Promise((ready, reject) => {
    worker.once('error', reject);
    worker.once('message', () => {
      const outcome = new Promise<Created[]>((done, fail) => {
        worker.once('message', done);
        worker.once('error', fail);
      });
      ready({ outcome });
    });
  });
}

/**
 * `promo serve` on a database without keys, with none in the environment, creates one server
 * and one client key and prints them once (bootstrapKeys). Servers starting on one new file at
 * once (here: four threads, each with its own connection, released together) create that pair
 * once: the look for keys and the inserts are one write transaction.
 */
describe('the first keys, with several servers starting at once', () => {
  it('are created once, and handed to one server to announce', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const dbFile = await freshDatabase();
      const go = new SharedArrayBuffer(4);
      const racers = await Promise.all(Array.from({ length: STARTS }, () => racer(dbFile, go)));
      Atomics.store(new Int32Array(go), 0, 1);
      Atomics.notify(new Int32Array(go), 0);
      const created = await Promise.all(racers.map((r) => r.outcome));
      assert.deepEqual(
        created.map((keys) => keys.map((k) => k.kind).join()).sort(),
        ['', '', '', 'server,client'],
        `round ${round}`,
      );
      const sqlite = openRows(dbFile);
      const rows = sqlite.prepare('SELECT app_id, kind FROM api_keys ORDER BY kind').all();
      sqlite.close();
      assert.deepEqual(
        rows,
        created.flat().sort((a, b) => a.kind.localeCompare(b.kind)),
        `round ${round}: the keys announced are the keys stored`,
      );
    }
  });
});
