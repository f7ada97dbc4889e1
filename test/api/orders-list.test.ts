import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertOrderReference } from '../modules/orders/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

interface Order {
  id: string;
  source_id: string;
}

/** GET /v1/orders: orders, pages, filters by customer and status, `total`. */
describe('orders: list', () => {
  let server: TestServer;
  const clock = fixedClock('2024-06-01T00:00:00.000Z');
  const byName: Record<string, Order> = {};
  let ann: string;
  let bob: string;

  before(async () => {
    server = await startTestServer({ clock });
    const create = async (name: string, body: Record<string, unknown>) => {
      clock.advance(1000);
      byName[name] = (
        await server.request('POST', '/v1/orders', {
          body: { source_id: name, items: [{ quantity: 1, price: 100 }], ...body },
        })
      ).body;
    };
    await create('o1', { customer: { source_id: 'ann' } });
    await create('o2', { customer: { source_id: 'ann' }, status: 'PAID' });
    await create('o3', { customer: { source_id: 'bob' }, status: 'PAID' });
    await create('o4', { status: 'CANCELED' });
    await create('o5', { customer: { source_id: 'ann' }, status: 'FULFILLED' });
    clock.advance(1000);
    await server.request('PUT', '/v1/orders/o1', { body: { metadata: { note: 'changed' } } });
    clock.advance(1000);
    await server.request('PUT', '/v1/orders/o3', { body: { metadata: { note: 'changed' } } });
    ann = (await server.request('GET', '/v1/customers/ann')).body.id;
    bob = (await server.request('GET', '/v1/customers/bob')).body.id;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const list = async (query: string) => {
    const res = await server.request('GET', `/v1/orders${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body as { object: string; data_ref: string; orders: Order[]; total: number };
  };
  const names = (body: { orders: Order[] }) => body.orders.map((o) => o.source_id);

  it('answers the whole orders, newest first, with the total', async () => {
    const body = await list('');
    const whole = await Promise.all(
      ['o5', 'o4', 'o3', 'o2', 'o1'].map(async (name) => (await server.request('GET', `/v1/orders/${name}`)).body),
    );
    assert.deepEqual(body, { object: 'list', data_ref: 'orders', orders: whole, total: 5 });
    assertOrderReference('GET', body, true);
  });

  it('orders by created_at and updated_at either way; never-updated orders (updated_at null) come first ascending', async () => {
    assert.deepEqual(names(await list('?order=created_at')), ['o1', 'o2', 'o3', 'o4', 'o5']);
    assert.deepEqual(names(await list('?order=-created_at')), ['o5', 'o4', 'o3', 'o2', 'o1']);
    assert.deepEqual(names(await list('?order=updated_at')), ['o2', 'o4', 'o5', 'o1', 'o3']);
    assert.deepEqual(names(await list('?order=-updated_at')), ['o3', 'o1', 'o5', 'o4', 'o2']);
  });

  it('pages with limit and page; total counts the whole set', async () => {
    assert.deepEqual([names(await list('?limit=2&page=2')), (await list('?limit=2&page=2')).total], [['o3', 'o2'], 5]);
    assert.deepEqual([names(await list('?limit=2&page=3')), (await list('?limit=100&page=2')).orders], [['o1'], []]);
  });

  it('filters by customer (id or source id, or customer_id) and status, alone and together', async () => {
    const filtered = async (query: string) => {
      const body = await list(query);
      return [names(body), body.total];
    };
    assert.deepEqual(await filtered('?customer=ann'), [['o5', 'o2', 'o1'], 3]);
    assert.deepEqual(await filtered(`?customer=${ann}&order=created_at`), [['o1', 'o2', 'o5'], 3]);
    assert.deepEqual(await filtered(`?customer_id=${bob}`), [['o3'], 1]);
    assert.deepEqual(await filtered(`?customer=ann&customer_id=${ann}&limit=1`), [['o5'], 3]);
    assert.deepEqual(await filtered('?status=PAID'), [['o3', 'o2'], 2]);
    assert.deepEqual(await filtered('?status=CANCELED&order=-updated_at'), [['o4'], 1]);
    assert.deepEqual(await filtered('?customer=ann&status=PAID'), [['o2'], 1]);
    assert.deepEqual(await filtered('?customer=bob&status=FULFILLED'), [[], 0]);
  });

  it('gives an empty list for an unknown customer, or two parameters naming different customers', async () => {
    assert.deepEqual(await list('?customer=nobody'), { object: 'list', data_ref: 'orders', orders: [], total: 0 });
    assert.deepEqual(await list(`?customer=ann&customer_id=${bob}`), {
      object: 'list',
      data_ref: 'orders',
      orders: [],
      total: 0,
    });
  });

  it('keeps total true as orders change status (counters kept by triggers)', async () => {
    clock.advance(1000);
    await server.request('PUT', '/v1/orders/o1', { body: { status: 'PAID' } });
    assert.deepEqual(
      [(await list('?status=PAID')).total, (await list('?status=CREATED')).total, (await list('')).total],
      [3, 0, 5],
    );
    // Summed per status: PostgreSQL spreads each counter over slots (docs/postgres.md), SQLite has one row.
    const counts = sqliteOf(server.deps)
      .prepare('SELECT status, sum(total) AS total FROM order_counts GROUP BY status ORDER BY status')
      .all();
    const actual = sqliteOf(server.deps)
      .prepare('SELECT status, count(*) AS total FROM orders GROUP BY status ORDER BY status')
      .all();
    assert.deepEqual(
      counts.filter((c) => (c as { total: number }).total > 0),
      actual,
    );
  });
});
