import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint } from '../support/db.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertAsyncActionMatchesReference } from '../support/openapi.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';
import { customerObject } from '../modules/customers/fixtures.js';
import { assertCustomerObject } from '../modules/customers/reference.js';
import { onPostgres } from '../support/engine.js';
import { sqliteOf } from '../support/sqlite.js';

/**
 * A trigger that refuses one product's order item with a constraint error, as each engine
 * writes one: SQLite's RAISE(ABORT) is SQLITE_CONSTRAINT_TRIGGER; PostgreSQL's trigger function
 * raises check_violation (a plain RAISE EXCEPTION would be no constraint: the job would stop).
 */
const REFUSING_TRIGGER = {
  sqlite: `CREATE TRIGGER test_refuse_item BEFORE INSERT ON order_items WHEN NEW.source_id = 'sql-refused'
    BEGIN SELECT RAISE(ABORT, 'order item refused by a test trigger'); END`,
  postgres: `CREATE FUNCTION test_refuse_item() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.source_id = 'sql-refused' THEN RAISE EXCEPTION 'order item refused by a test trigger' USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER test_refuse_item BEFORE INSERT ON order_items FOR EACH ROW EXECUTE FUNCTION test_refuse_item()`,
};
const DROP_REFUSING_TRIGGER = {
  sqlite: 'DROP TRIGGER test_refuse_item',
  postgres: 'DROP TRIGGER test_refuse_item ON order_items; DROP FUNCTION test_refuse_item()',
};

const order = (sourceId: string, extra: Record<string, unknown> = {}) => ({
  source_id: sourceId,
  status: 'PAID',
  created_at: '2023-05-01T10:00:00.000Z',
  customer: { source_id: 'imp-ann', name: 'Ann' },
  items: [
    { quantity: 2, price: 1500 },
    { quantity: 1, price: 700 },
  ],
  ...extra,
});

/** POST /v1/orders/import (the reference's "Import Orders"): historical orders through the ORDERS.IMPORT job. */
describe('POST /v1/orders/import', () => {
  let server: TestServer;
  let runner: ReturnType<typeof testRunner>;
  before(async () => {
    server = await startTestServer();
    runner = testRunner(server.deps);
    await server.request('POST', '/v1/orders', {
      body: { source_id: 'imp-existing', status: 'CREATED', items: [{ quantity: 1, price: 100 }] },
    });
  });
  after(async () => {
    await runner.stop();
    await server.close();
  });

  it('imports good orders, reports each bad one, keeps created_at, updates summaries, and emits no events', async () => {
    const res = await server.request('POST', '/v1/orders/import', {
      body: [
        order('imp-1'),
        order('imp-bad-status', { status: 'SHIPPED' }),
        order('imp-2', { created_at: '2023-06-01T10:00:00.000Z' }),
        order('imp-existing', { status: 'CANCELED', customer: undefined, items: [{ quantity: 3, price: 100 }] }),
        order('imp-bad-amount', { discount_amount: 5000 }),
        // The catalog does not know the product: the item is kept as given, as POST /v1/orders keeps it.
        order('imp-unknown-product', {
          customer: undefined,
          items: [{ product_id: 'prod_nope', quantity: 1, price: 100 }],
        }),
      ],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['async_action_id']);
    const job = await waitForJob(server, res.body.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual([job.type, job.status, job.operation_status], ['ORDERS.IMPORT', 'DONE', 'FAILED']);
    assert.deepEqual(job.result, {
      message: '4 order(s) imported successfully, 2 failed.',
      failed: [
        { source_id: 'imp-bad-status', reason: 'status must be one of: CREATED, PAID, CANCELED, FULFILLED' },
        {
          source_id: 'imp-bad-amount',
          reason: "discount_amount and the items' discount_amount (5000 in all) must not exceed amount (3700)",
        },
      ],
      done_count: 4,
      failed_count: 2,
      reports: [`/v1/async-actions/${job.id}/failures`],
    });
    const one = (await server.request('GET', '/v1/orders/imp-1')).body;
    assert.deepEqual([one.created_at, one.amount, one.status], ['2023-05-01T10:00:00.000Z', 3700, 'PAID']);
    assert.equal((await server.request('GET', '/v1/orders/imp-existing')).body.status, 'CANCELED');
    const unknown = (await server.request('GET', '/v1/orders/imp-unknown-product')).body;
    assert.deepEqual(
      [unknown.amount, unknown.items.map((i: { product_id: string }) => i.product_id)],
      [100, ['prod_nope']],
    );
    assert.equal((await server.request('GET', '/v1/orders/imp-bad-status')).status, 404);
    const ann = (await server.request('GET', '/v1/customers/imp-ann')).body;
    assert.deepEqual(ann.summary.orders, {
      total_amount: 7400,
      total_count: 2,
      average_amount: 3700,
      last_order_amount: 3700,
      last_order_date: '2023-06-01T10:00:00.000Z',
    });
    const feed = (await server.request('GET', '/v1/customers/imp-ann/activity?limit=100')).body.data as Array<{
      type: string;
    }>;
    assert.deepEqual(
      feed.filter((e) => e.type.startsWith('customer.order.')),
      [],
    );
  });

  it('resolves each order against the catalog as it stands after the orders before it, in one portion', async () => {
    await server.request('POST', '/v1/products', { body: { source_id: 'cat-old', name: 'Old', price: 100 } });
    const item = (sourceId: string, extra: Record<string, unknown> = {}) => ({
      source_id: sourceId,
      related_object: 'product',
      quantity: 1,
      ...extra,
    });
    const created = { product: { name: 'New', price: 500, override: true } };
    const res = await server.request('POST', '/v1/orders/import', {
      body: [
        // Creates cat-new, then fails on its amounts: the product is rolled back with it.
        order('cat-1', { items: [item('cat-new', created)], discount_amount: 600 }),
        // cat-new is unknown again: the item is kept as given, with no price.
        order('cat-2', { items: [item('cat-new')] }),
        order('cat-3', { items: [item('cat-new', created)] }),
        order('cat-4', { items: [item('cat-new', { quantity: 2 })] }),
        order('cat-5', { items: [item('cat-old', { product: { price: 900, override: true } })] }),
        order('cat-6', { items: [item('cat-old'), item('cat-new')] }),
      ],
    });
    const job = await waitForJob(server, res.body.async_action_id);
    assert.deepEqual(job.result.failed, [
      {
        source_id: 'cat-1',
        reason: "discount_amount and the items' discount_amount (600 in all) must not exceed amount (500)",
      },
    ]);
    const amounts = [];
    for (const id of ['cat-2', 'cat-3', 'cat-4', 'cat-5', 'cat-6'])
      amounts.push((await server.request('GET', `/v1/orders/${id}`)).body.amount);
    assert.deepEqual(amounts, [0, 500, 1000, 900, 1400]);
    const products = (await server.request('GET', '/v1/products?limit=100')).body.products as Array<{
      source_id: string;
      price: number;
    }>;
    assert.deepEqual(
      products
        .filter((p) => p.source_id?.startsWith('cat-'))
        .map((p) => [p.source_id, p.price])
        .sort(),
      [
        ['cat-new', 500],
        ['cat-old', 900],
      ],
    );
  });

  it("keeps the customers' updated_at: an imported order is history; a new customer is stored with its first order's figures", async () => {
    const bob = (await server.request('POST', '/v1/customers', { body: { source_id: 'hist-bob', name: 'Bob' } })).body;
    await new Promise((r) => setTimeout(r, 5)); // a later millisecond: a moved updated_at would show
    const res = await server.request('POST', '/v1/orders/import', {
      body: [
        order('hist-1', { customer: { source_id: 'hist-bob' } }),
        order('hist-2', { customer: { source_id: 'hist-new', name: 'New' }, created_at: '2023-07-01T10:00:00.000Z' }),
        order('hist-3', { customer: { source_id: 'hist-new' }, status: 'CREATED' }),
      ],
    });
    const job = await waitForJob(server, res.body.async_action_id);
    assert.deepEqual(job.result, {
      message: '3 order(s) imported successfully, 0 failed.',
      failed: [],
      done_count: 3,
      failed_count: 0,
    });
    const summary = (orders: Record<string, unknown>) => ({ ...bob.summary, orders });
    const counted = (date: string) => ({
      total_amount: 3700,
      total_count: 1,
      average_amount: 3700,
      last_order_amount: 3700,
      last_order_date: date,
    });
    const bobAfter = (await server.request('GET', '/v1/customers/hist-bob')).body;
    assert.deepEqual(bobAfter, { ...bob, summary: summary(counted('2023-05-01T10:00:00.000Z')) });
    const fresh = (await server.request('GET', '/v1/customers/hist-new')).body;
    assertCustomerObject(fresh);
    // updated_at: its created_at (customerObject's default), not moved by its orders.
    assert.deepEqual(
      fresh,
      customerObject({
        id: fresh.id,
        source_id: 'hist-new',
        name: 'New',
        created_at: fresh.created_at,
        summary: summary(counted('2023-07-01T10:00:00.000Z')),
      }),
    );
    // The API's writes still move it.
    await server.request('POST', '/v1/orders', {
      body: {
        source_id: 'hist-api',
        status: 'PAID',
        customer: { source_id: 'hist-bob' },
        items: [{ quantity: 1, price: 300 }],
      },
    });
    assert.notEqual((await server.request('GET', '/v1/customers/hist-bob')).body.updated_at, bob.updated_at);
  });

  it('finds a customer by a source id an earlier order of the same portion gave it', async () => {
    const moved = (await server.request('POST', '/v1/customers', { body: { source_id: 'move-old', name: 'Mover' } }))
      .body;
    const res = await server.request('POST', '/v1/orders/import', {
      body: [
        order('move-1', { customer: { id: moved.id, source_id: 'move-new' } }),
        order('move-2', { customer: { source_id: 'move-new' } }),
      ],
    });
    const job = await waitForJob(server, res.body.async_action_id);
    assert.deepEqual(job.result, {
      message: '2 order(s) imported successfully, 0 failed.',
      failed: [],
      done_count: 2,
      failed_count: 0,
    });
    const after = (await server.request('GET', '/v1/customers/move-new')).body;
    assert.deepEqual([after.id, after.summary.orders.total_count], [moved.id, 2]);
    assert.equal((await server.request('GET', '/v1/customers/move-old')).status, 404);
  });

  it('redoes a portion an order at a time when an order fails in SQL: the others land, the one is reported, nothing of it is kept', async () => {
    await server.request('POST', '/v1/products', { body: { source_id: 'sql-refused', name: 'Refused', price: 100 } });
    const bob = (await server.request('POST', '/v1/customers', { body: { source_id: 'sql-bob', name: 'Bob' } })).body;
    sqliteOf(server.deps).exec(onPostgres() ? REFUSING_TRIGGER.postgres : REFUSING_TRIGGER.sqlite);
    try {
      const before = dbFingerprint(sqliteOf(server.deps));
      const res = await server.request('POST', '/v1/orders/import', {
        body: [
          order('sql-1', { customer: { source_id: 'sql-ann', name: 'Ann' } }),
          // Renames Bob, then its item fails in SQL: the rename must go with it.
          order('sql-2', {
            customer: { source_id: 'sql-bob', name: 'Robert' },
            items: [{ source_id: 'sql-refused', related_object: 'product', quantity: 1 }],
          }),
          order('sql-3', { customer: { source_id: 'sql-ann' } }),
        ],
      });
      const job = await waitForJob(server, res.body.async_action_id);
      assert.deepEqual(job.result, {
        message: '2 order(s) imported successfully, 1 failed.',
        failed: [{ source_id: 'sql-2', reason: 'order item refused by a test trigger' }],
        done_count: 2,
        failed_count: 1,
        reports: [`/v1/async-actions/${job.id}/failures`],
      });
      assert.notEqual(dbFingerprint(sqliteOf(server.deps)), before);
      assert.equal((await server.request('GET', '/v1/orders/sql-2')).status, 404);
      assert.deepEqual((await server.request('GET', '/v1/customers/sql-bob')).body, bob);
      const amounts = [];
      for (const id of ['sql-1', 'sql-3']) amounts.push((await server.request('GET', `/v1/orders/${id}`)).body.amount);
      assert.deepEqual(amounts, [3700, 3700]);
      const ann = (await server.request('GET', '/v1/customers/sql-ann')).body;
      assert.deepEqual(ann.summary.orders, {
        total_amount: 7400,
        total_count: 2,
        average_amount: 3700,
        last_order_amount: 3700,
        last_order_date: '2023-05-01T10:00:00.000Z',
      });
    } finally {
      sqliteOf(server.deps).exec(onPostgres() ? DROP_REFUSING_TRIGGER.postgres : DROP_REFUSING_TRIGGER.sqlite);
    }
  });

  it('refuses a body that is not an array of 1 to 2000 objects before any job starts', async () => {
    const cases: Array<[unknown, string]> = [
      [{ source_id: 'x' }, 'The body must be an array of orders'],
      [[], 'The body must hold at least one order'],
      [[1], '[0] must be an object'],
      [Array.from({ length: 2001 }, (_, i) => order(`many-${i}`)), 'The body may hold at most 2000 orders'],
    ];
    for (const [body, details] of cases) {
      const before = dbFingerprint(sqliteOf(server.deps));
      const res = await server.request('POST', '/v1/orders/import', { body });
      assert.deepEqual(
        res.body,
        errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details }),
        details,
      );
      assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
    }
  });
});
