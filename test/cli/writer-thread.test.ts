import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { spawnServe, type SpawnedServer } from '../support/cli.js';
import { freshDatabase, sqliteOnly } from '../support/engine.js';

const KEY = { PROMO_APP_ID: 'writer-thread-app', PROMO_APP_TOKEN: 'writer-thread-token' };
const HEADERS = {
  'X-App-Id': KEY.PROMO_APP_ID,
  'X-App-Token': KEY.PROMO_APP_TOKEN,
  'Content-Type': 'application/json',
};

/**
 * `promo serve` on SQLite runs each redemption whole on its writer thread (root/writer-thread.ts)
 * once the thread is up, beside the main thread's own writes. What a client sees must not
 * change: the same answers and refusals, idempotent retries, limits that hold across both
 * writers, the figures on /metrics, and a clean stop.
 */
describe(
  'the writer thread of promo serve',
  sqliteOnly('PostgreSQL servers write side by side, with no writer thread'),
  () => {
    let server: SpawnedServer;
    let dbFile: string;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { ...HEADERS, ...headers },
        body: JSON.stringify(body),
      });
    const metric = async (name: string): Promise<number> => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return Number(/^(\S+) (\S+)$/m.exec(text.split('\n').find((line) => line.startsWith(`${name} `)) ?? '')?.[2]);
    };
    const voucher = async (code: string, quantity: number | null) => {
      const res = await post('/v1/vouchers', {
        code,
        type: 'DISCOUNT_VOUCHER',
        discount: { type: 'PERCENT', percent_off: 10 },
        redemption: { quantity },
      });
      assert.equal(res.status, 200, await res.clone().text());
    };
    const redeem = (code: string, headers: Record<string, string> = {}) =>
      post('/v1/redemptions', { order: { amount: 1000 }, redeemables: [{ object: 'voucher', id: code }] }, headers);

    before(async () => {
      dbFile = await freshDatabase();
      server = await spawnServe(['--db', dbFile], KEY);
      await voucher('WT-START', null);
      // The first redemption starts the thread (it runs on the main thread meanwhile).
      assert.equal((await redeem('WT-START')).status, 200);
      const deadline = Date.now() + 60_000;
      while ((await metric('promo_writer_thread_up')) !== 1) {
        assert.ok(Date.now() < deadline, 'the writer thread came up');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    after(() => server.stop());

    it('answers a redemption as GET shows the records it stored, and counts it on /metrics', async () => {
      await voucher('WT-SAME', null);
      const [operations, transactions] = [
        await metric('promo_writer_thread_operations_total'),
        await metric('promo_commit_transactions_total'),
      ];
      const res = await redeem('WT-SAME');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8$/);
      const answer = (await res.json()) as { redemptions: Array<{ id: string }>; parent_redemption: { id: string } };
      assert.equal(answer.redemptions.length, 1);
      const [child] = answer.redemptions as [{ id: string }];
      const stored = await server.request('GET', `/v1/redemptions/${child.id}`);
      assert.deepEqual(stored, { status: 200, body: child });
      assert.equal((await server.request('GET', `/v1/redemptions/${answer.parent_redemption.id}`)).status, 200);
      assert.equal(await metric('promo_writer_thread_operations_total'), operations + 1);
      assert.ok((await metric('promo_commit_transactions_total')) > transactions, "the thread's commits are counted");
    });

    it('answers an order as GET shows it', async () => {
      const operations = await metric('promo_writer_thread_operations_total');
      const res = await post('/v1/orders', {
        source_id: 'wt-order-1',
        status: 'PAID',
        customer: { source_id: 'wt-customer' },
        items: [{ sku_id: 'wt-sku', quantity: 2, price: 1500 }],
      });
      assert.equal(res.status, 200);
      const order = (await res.json()) as { id: string; amount: number };
      assert.equal(order.amount, 3000);
      assert.deepEqual(await server.request('GET', `/v1/orders/${order.id}`), { status: 200, body: order });
      assert.equal(await metric('promo_writer_thread_operations_total'), operations + 1);
    });

    it('refuses as the main thread would, with the failed redemption stored', async () => {
      await voucher('WT-ONCE', 1);
      assert.equal((await redeem('WT-ONCE')).status, 200);
      const refused = await redeem('WT-ONCE');
      const body = (await refused.json()) as { resource_id: string };
      assert.equal(refused.status, 400);
      assert.deepEqual(body, {
        code: 400,
        key: 'quantity_exceeded',
        message: 'quantity exceeded',
        details: 'voucher WT-ONCE: quantity exceeded',
        request_id: refused.headers.get('x-request-id'),
        resource_id: body.resource_id,
        resource_type: 'redemption',
      });
      const failed = await server.request('GET', `/v1/redemptions/${body.resource_id}`);
      assert.deepEqual([failed.status, failed.body.result, failed.body.voucher.code], [200, 'FAILURE', 'WT-ONCE']);
    });

    it('replays an idempotent retry byte for byte, and writes once', async () => {
      await voucher('WT-IDEM', null);
      const headers = { 'Idempotency-Key': 'wt-idem-1' };
      const first = await redeem('WT-IDEM', headers);
      const retry = await redeem('WT-IDEM', headers);
      assert.equal(first.status, 200);
      assert.equal(retry.status, 200);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(await retry.text(), await first.text());
      const stored = await server.request('GET', '/v1/vouchers/WT-IDEM');
      assert.equal(stored.body.redemption.redeemed_quantity, 1);
    });

    it('holds a voucher limit across the writer thread and the main thread writing at once', async () => {
      await voucher('WT-RACE', 20);
      // Stacked redemptions go to the writer thread; the single-voucher route runs on the main thread.
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          (i % 2 === 0 ? redeem('WT-RACE') : post('/v1/vouchers/WT-RACE/redemption', { order: { amount: 1000 } })).then(
            (r) => r.status,
          ),
        ),
      );
      assert.equal(results.filter((status) => status === 200).length, 20);
      assert.equal(results.filter((status) => status === 400).length, 40);
      const stored = await server.request('GET', '/v1/vouchers/WT-RACE');
      assert.equal(stored.body.redemption.redeemed_quantity, 20);
    });

    it('answers 503 database_busy when the file stays locked, writes nothing, and keeps answering reads meanwhile', async () => {
      await voucher('WT-LOCKED', null);
      const other = new Database(dbFile);
      other.exec('BEGIN IMMEDIATE'); // another process's write lock, held past the 5 s busy timeout
      const started = performance.now();
      const redemption = redeem('WT-LOCKED');
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The writer thread waits for the lock; the main thread still answers.
      const health = await fetch(`${server.url}/health`);
      const healthMs = performance.now() - started;
      const busy = await redemption.finally(() => {
        other.exec('ROLLBACK');
        other.close();
      });
      assert.equal(health.status, 200);
      assert.ok(healthMs < 2500, `/health answered in ${Math.round(healthMs)} ms while the redemption waited`);
      const body = (await busy.json()) as { request_id: string };
      assert.deepEqual(
        [busy.status, busy.headers.get('retry-after'), body],
        [
          503,
          '1',
          {
            code: 503,
            key: 'database_busy',
            message: 'Database busy',
            details: 'The database stayed locked; retry the request',
            request_id: busy.headers.get('x-request-id'),
          },
        ],
      );
      const stored = await server.request('GET', '/v1/vouchers/WT-LOCKED');
      assert.equal(stored.body.redemption.redeemed_quantity, 0);
      assert.equal((await redeem('WT-LOCKED')).status, 200);
    });

    it('stops cleanly with the thread running: SIGTERM exits 0', async () => {
      const other = await spawnServe(['--db', await freshDatabase()], KEY);
      const res = await fetch(`${other.url}/v1/vouchers`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({
          code: 'WT-STOP',
          type: 'DISCOUNT_VOUCHER',
          discount: { type: 'PERCENT', percent_off: 5 },
        }),
      });
      assert.equal(res.status, 200);
      for (let i = 0; i < 3; i++) {
        const redeemed = await fetch(`${other.url}/v1/redemptions`, {
          method: 'POST',
          headers: HEADERS,
          body: JSON.stringify({ order: { amount: 100 }, redeemables: [{ object: 'voucher', id: 'WT-STOP' }] }),
        });
        assert.equal(redeemed.status, 200);
      }
      assert.equal(await other.stop('SIGTERM'), 0);
    });
  },
);
