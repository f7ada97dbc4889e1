import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { after, before, describe, it } from 'node:test';
import { openDeps } from '../../../src/root/create-deps.js';
import { internalActor } from '../../../src/lib/actor.js';
import { AppError } from '../../../src/lib/errors.js';
import { onOrderPaid, type PaidOrder } from '../../../src/modules/orders/order-paid.seam.js';
import { createOrder, getOrder, IMPORT_UPSERT, upsertOrder } from '../../../src/modules/orders/orders.service.js';
import { dbFingerprint } from '../../support/db.js';
import { freshDatabase } from '../../support/engine.js';
import { requestIdOf, startTestServer, type TestServer } from '../../support/server.js';
import { sqliteOf } from '../../support/sqlite.js';

/** The paid-order seam fires once per order, in the order's transaction, whoever pays it and however often. */
describe('the paid-order seam', () => {
  let server: TestServer;
  const fired: PaidOrder[] = [];
  before(async () => {
    server = await startTestServer();
    onOrderPaid(server.deps.seams, async (_trx, paid) => void fired.push(paid));
  });
  after(async () => {
    await server.close();
  });

  const post = (body: unknown) => server.request('POST', '/v1/orders', { body });
  const put = (ref: string, body: unknown) => server.request('PUT', `/v1/orders/${ref}`, { body });
  const firedFor = (id: string) => fired.filter((paid) => paid.order.id === id);

  it("fires for an order created PAID, with the order as answered and the request's actor", async () => {
    const res = await post({
      source_id: 'seam-1',
      status: 'PAID',
      customer: { source_id: 'seam-c' },
      items: [{ quantity: 1, price: 100 }],
    });
    assert.deepEqual(firedFor(res.body.id), [
      {
        order: res.body,
        actor: {
          channel: 'API',
          api_key: { name: 'test server key', app_id: server.serverKey.app_id },
          request_id: requestIdOf(res),
        },
        at: res.body.created_at,
      },
    ]);
  });

  it('fires once however often the order is re-sent PAID, canceled and paid again', async () => {
    const res = await post({ source_id: 'seam-2', status: 'PAID', items: [{ quantity: 1, price: 100 }] });
    await post({ source_id: 'seam-2', status: 'PAID', items: [{ quantity: 1, price: 100 }] });
    await post({ source_id: 'seam-2', status: 'PAID', metadata: { retry: 2 } });
    await put('seam-2', { status: 'PAID' });
    await put('seam-2', { status: 'CANCELED' });
    await put('seam-2', { status: 'PAID' });
    assert.equal(firedFor(res.body.id).length, 1);
  });

  it('fires when an order is updated to PAID, and never for CREATED, CANCELED or FULFILLED', async () => {
    const res = await post({ source_id: 'seam-3' });
    await put('seam-3', { status: 'FULFILLED' });
    await put('seam-3', { status: 'CANCELED' });
    assert.equal(firedFor(res.body.id).length, 0);
    const paid = await put('seam-3', { status: 'PAID' });
    assert.deepEqual(
      firedFor(res.body.id).map((p) => [p.order, p.at]),
      [[paid.body, paid.body.updated_at]],
    );
  });

  it('does not fire for an imported PAID order, nor later when it is re-sent PAID', async () => {
    const { deps } = server;
    const ctx = { actor: internalActor(), at: '2024-01-01T00:00:00.000Z', seams: deps.seams };
    const body = {
      source_id: 'seam-import',
      status: 'PAID' as const,
      created_at: '2023-03-04T05:06:07.000Z',
      customer: { source_id: 'seam-imp' },
    };
    const imported = await deps.db.transaction().execute((trx) => upsertOrder(trx, ctx, body, IMPORT_UPSERT));
    assert.equal(imported.order.created_at, '2023-03-04T05:06:07.000Z', "import keeps the order's created_at");
    await put('seam-import', { status: 'PAID' });
    await put('seam-import', { status: 'CANCELED' });
    await put('seam-import', { status: 'PAID' });
    assert.equal(firedFor(imported.order.id).length, 0);
    const feed = await server.request('GET', '/v1/customers/seam-imp/activity');
    assert.deepEqual(
      feed.body.data.map((e: { type: string }) => e.type).reverse(),
      ['customer.order.updated', 'customer.order.canceled', 'customer.order.updated', 'customer.order.paid'],
      "the import itself wrote no event (not even customer.created); the API's later changes do",
    );
  });

  it('commits what a subscriber writes with the order, and a subscriber that throws stores nothing', async () => {
    const stop = onOrderPaid(server.deps.seams, async () => {
      throw new AppError('invalid_order', 'refused by a subscriber');
    });
    const before = dbFingerprint(sqliteOf(server.deps));
    const res = await post({ source_id: 'seam-refused', status: 'PAID', customer: { source_id: 'seam-never' } });
    stop();
    assert.deepEqual([res.status, res.body.key, res.body.details], [400, 'invalid_order', 'refused by a subscriber']);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
    const again = await post({ source_id: 'seam-refused', status: 'PAID' });
    assert.equal(firedFor(again.body.id).length, 1, 'the refused attempt claimed nothing');
  });
});

function racer(
  dbFile: string,
  index: number,
  orders: string[],
  start: SharedArrayBuffer,
  ready: () => void,
): Promise<{ fired: number }> {
  return new Promise((resolve, reject) => {
    // A plain-JS entry registers tsx in the thread (as bin/promo does), then loads the .ts racer.
    const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    const file = JSON.stringify(new URL('./paid-race.worker.ts', import.meta.url).href);
    const entry = `import(${api}).then(({ register }) => { register(); return import(${file}); })`;
    const worker = new Worker(entry, { eval: true, workerData: { dbFile, racer: index, orders, start } });
    worker.on('message', (message: { ready?: boolean; fired?: number }) =>
      message.ready ? ready() : resolve({ fired: message.fired ?? 0 }),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`racer exited ${code}`)));
  });
}

describe('the paid-order seam across connections', () => {
  it('fires exactly once per order when four threads, each with its own connection, PUT the same orders to PAID at once', async () => {
    const RACERS = 4;
    const ORDERS = 25;
    const dbFile = await freshDatabase();
    const deps = await openDeps({ dbFile });
    try {
      sqliteOf(deps).exec(
        'CREATE TABLE paid_hits (order_id TEXT NOT NULL, racer INTEGER NOT NULL, status TEXT NOT NULL)',
      );
      const refs: string[] = [];
      for (let i = 0; i < ORDERS; i++) {
        const order = await createOrder(deps, internalActor(), {
          source_id: `race-${i}`,
          customer: { source_id: 'racer' },
          items: [{ quantity: 1, price: 100 }],
        });
        refs.push(order.source_id as string);
      }
      const start = new SharedArrayBuffer(4);
      let waiting = RACERS;
      const open = () => {
        if (--waiting > 0) return;
        Atomics.store(new Int32Array(start), 0, 1);
        Atomics.notify(new Int32Array(start), 0);
      };
      const results = await Promise.all(Array.from({ length: RACERS }, (_, i) => racer(dbFile, i, refs, start, open)));
      const hits = sqliteOf(deps)
        .prepare('SELECT order_id, count(*) AS n, min(status) AS status FROM paid_hits GROUP BY order_id')
        .all() as Array<{ n: number; status: string }>;
      assert.equal(hits.length, ORDERS);
      assert.deepEqual(new Set(hits.map((h) => `${h.n} ${h.status}`)), new Set(['1 PAID']));
      assert.equal(
        results.reduce((n, r) => n + r.fired, 0),
        ORDERS,
      );
      const paidEvents = sqliteOf(deps)
        .prepare("SELECT count(*) AS n FROM customer_events WHERE type = 'customer.order.paid'")
        .get() as { n: number };
      assert.equal(paidEvents.n, ORDERS);
      const racerSummary = (await getOrder(deps, 'race-0')).customer_id as string;
      const row = sqliteOf(deps)
        .prepare('SELECT orders_total_count AS n, orders_total_amount AS amount FROM customers WHERE id = ?')
        .get(racerSummary);
      assert.deepEqual(row, { n: ORDERS, amount: ORDERS * 100 });
    } finally {
      await deps.close();
    }
  });
});
