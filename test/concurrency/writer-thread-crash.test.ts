import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { useWriterThread, type WriterThread } from '../../src/root/writer-thread.js';
import { sqliteOnly } from '../support/engine.js';
import { internalErrorBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';

const CLIENTS = 16;

/**
 * A writer thread (root/writer-thread.ts) that ends in the middle of its work, as a crash
 * would (its Worker terminated while redemptions are in flight): every request still gets an
 * answer, what committed is whole and what did not left nothing, and the server goes on
 * writing on its main thread, neither the process's writer turn nor SQLite's lock left taken,
 * until the thread is started again.
 */
describe(
  'a writer thread that dies mid-operation',
  sqliteOnly('PostgreSQL servers write side by side, with no writer thread'),
  () => {
    let server: TestServer;
    let thread: WriterThread;
    const redeem = () =>
      server.request('POST', '/v1/redemptions', {
        body: { order: { amount: 1000 }, redeemables: [{ object: 'voucher', id: 'CRASH-PCT' }] },
      });

    const threadUp = async () => {
      const deadline = Date.now() + 60_000;
      while (!thread.up) {
        assert.ok(Date.now() < deadline, 'the writer thread came up');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    before(async () => {
      server = await startTestServer();
      const created = await server.request('POST', '/v1/vouchers/CRASH-PCT', {
        body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
      });
      assert.equal(created.status, 200, created.text);
      // Started again at the first write after it stopped (a server waits a minute).
      thread = useWriterThread(server.deps, 'error', { restartAfterMs: 0 }) as WriterThread;
      // The first redemption starts the thread and runs on the main thread meanwhile.
      assert.equal((await redeem()).status, 200);
      await threadUp();
    });
    after(() => server.close());

    it('answers every request, keeps what committed whole, and writes on without it', async () => {
      // CLIENTS clients redeem one after another until the thread, having answered some, holds
      // several in flight: it is ended then, mid-operation, with answers still owed.
      const responses: TestResponse[] = [];
      let ended = false;
      const client = async () => {
        while (!ended) responses.push(await redeem());
      };
      const committed = () => server.deps.engine.stats().commits.transactions;
      const clients = Array.from({ length: CLIENTS }, client);
      const start = thread.operations;
      const deadline = Date.now() + 30_000;
      while (thread.operations < start + 5 || thread.inFlight < 3) {
        assert.ok(Date.now() < deadline, `the thread held operations in flight (${thread.inFlight})`);
        await new Promise((resolve) => setImmediate(resolve));
      }
      const before = committed();
      await thread.thread?.terminate();
      ended = true;
      await Promise.all(clients);
      // /metrics' commit counters never go back: the ended thread's commits stay counted.
      assert.ok(committed() >= before, `${committed()} transactions counted after, ${before} before`);

      const failed = responses.filter((res) => res.status !== 200);
      assert.ok(failed.length > 0, 'some requests were in the thread when it ended');
      for (const res of failed) assert.deepEqual(res.body, internalErrorBody(res));
      assert.ok(
        server.logged.some((line) =>
          line.startsWith('writer thread stopped; writes run on the main thread until it starts again'),
        ),
        server.logged.join('\n'),
      );

      // Writes go on, on the main thread: the turn and SQLite's lock were let go.
      const after = await redeem();
      assert.equal(after.status, 200, after.text);
      const customer = await server.request('POST', '/v1/customers', { body: { source_id: 'after-the-crash' } });
      assert.equal(customer.status, 200, customer.text);
      // And the thread is started again: the next redemptions run on it.
      await threadUp();
      const operations = thread.operations;
      const again = await redeem();
      assert.equal(again.status, 200, again.text);
      assert.equal(thread.operations, operations + 1);
      assert.ok(committed() > before, 'the new thread adds its commits to the old ones');

      // Whatever committed is whole: the voucher counts exactly the redemptions stored, and every
      // 200 among them. An answer lost with the thread (a 500) may have committed or not.
      const db = new Database(server.dbFile, { readonly: true });
      try {
        const counted = db.prepare("SELECT redeemed_quantity AS n FROM vouchers WHERE code = 'CRASH-PCT'").get() as {
          n: number;
        };
        const stored = db
          .prepare(
            "SELECT count(*) AS n FROM redemptions WHERE voucher_code = 'CRASH-PCT' AND object = 'redemption' AND result = 'SUCCESS' AND parent_id IS NOT NULL",
          )
          .get() as { n: number };
        const parents = db
          .prepare("SELECT count(*) AS n FROM redemptions WHERE parent_id IS NULL AND result = 'SUCCESS'")
          .get() as { n: number };
        const orders = db.prepare("SELECT count(*) AS n FROM orders WHERE redemptions <> '{}'").get() as { n: number };
        assert.equal(counted.n, stored.n);
        assert.deepEqual([parents.n, orders.n], [stored.n, stored.n]);
        const answered = responses.filter((res) => res.status === 200).length + 3;
        assert.ok(
          stored.n >= answered && stored.n <= responses.length + 3,
          `${stored.n} stored, ${answered} of ${responses.length} answered`,
        );
      } finally {
        db.close();
      }
    });
  },
);
