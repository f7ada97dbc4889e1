import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertCustomerReference } from '../modules/customers/reference.js';
import { requestIdOf, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const T0 = '2024-07-01T00:00:00.000Z';

interface Activity {
  id: string;
  type: string;
  data: { data: Record<string, unknown>; event_source: unknown };
  created_at: string;
  group_id: string;
}

/** What orders do to customers: events (the reference's activity `type` names) and summary.orders. */
describe('orders: customer events and summary.orders', () => {
  let server: TestServer;
  const clock = fixedClock(T0);
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const tick = () => {
    clock.advance(60_000);
    return clock.now().toISOString();
  };
  const post = (body: unknown) => server.request('POST', '/v1/orders', { body });
  const put = (ref: string, body: unknown) => server.request('PUT', `/v1/orders/${ref}`, { body });
  const customer = async (ref: string) => (await server.request('GET', `/v1/customers/${ref}`)).body;
  const summary = async (ref: string) => (await customer(ref)).summary.orders;
  const feed = async (ref: string): Promise<Activity[]> => {
    const res = await server.request('GET', `/v1/customers/${ref}/activity?limit=100`);
    assertCustomerReference('GET', '/v1/customers/{customerId}/activity', 200, res.body);
    return res.body.data;
  };
  const types = async (ref: string) => (await feed(ref)).map((e) => e.type).reverse();
  const sums = (total_amount: number, total_count: number, last?: [number, string]) => ({
    total_amount,
    total_count,
    average_amount: total_count === 0 ? 0 : Math.round(total_amount / total_count),
    last_order_amount: last?.[0] ?? 0,
    ...(last ? { last_order_date: last[1] } : {}),
  });

  it('records customer.order.created and .paid with the customer, referrer and order, the API key and the request id', async () => {
    const at = tick();
    const res = await post({
      source_id: 'ev-1',
      status: 'PAID',
      customer: { source_id: 'ev-ann', name: 'Ann' },
      referrer: { source_id: 'ev-ref', email: 'r@x.io' },
      items: [{ quantity: 2, price: 500 }],
    });
    const events = await feed('ev-ann');
    const ann = await customer('ev-ann');
    const ref = await customer('ev-ref');
    const data = {
      customer: { id: ann.id, name: 'Ann', source_id: 'ev-ann', metadata: {}, object: 'customer' },
      referrer: { id: ref.id, email: 'r@x.io', source_id: 'ev-ref', metadata: {}, object: 'customer' },
      order: res.body,
    };
    const source = { channel: 'API', api_key: { name: 'test server key', app_id: server.serverKey.app_id } };
    const event = (type: string, e: Activity | undefined) => ({
      id: e?.id,
      type,
      data: { data, event_source: source },
      created_at: at,
      group_id: requestIdOf(res),
    });
    assert.deepEqual(events.slice(0, 2), [
      event('customer.order.paid', events[0]),
      event('customer.order.created', events[1]),
    ]);
    assert.deepEqual(await types('ev-ann'), ['customer.created', 'customer.order.created', 'customer.order.paid']);
    assert.deepEqual(await types('ev-ref'), ['customer.created'], "the referrer's feed has no order events");
    assert.deepEqual(ann.summary.orders, sums(1000, 1, [1000, at]));
  });

  it("emits .updated for every change, and the status's own event when the status changes; a re-send changing nothing emits nothing", async () => {
    tick();
    await post({ source_id: 'ev-2', customer: { source_id: 'ev-bob' }, items: [{ quantity: 1, price: 100 }] });
    tick();
    await put('ev-2', { metadata: { note: 'gift' } });
    tick();
    await put('ev-2', { status: 'PAID' });
    await put('ev-2', { status: 'PAID' });
    await post({ source_id: 'ev-2', status: 'PAID', metadata: { note: 'gift' } });
    tick();
    await put('ev-2', { status: 'FULFILLED' });
    tick();
    await put('ev-2', { status: 'CANCELED' });
    tick();
    await put('ev-2', { status: 'CREATED' });
    assert.deepEqual(await types('ev-bob'), [
      'customer.created',
      'customer.order.created',
      'customer.order.updated',
      'customer.order.updated',
      'customer.order.paid',
      'customer.order.updated',
      'customer.order.fulfilled',
      'customer.order.updated',
      'customer.order.canceled',
      'customer.order.updated',
    ]);
  });

  it('counts PAID and FULFILLED orders; a canceled one leaves the totals and last_order_*, a reopened one counts again', async () => {
    const t1 = tick();
    await post({
      source_id: 'sum-1',
      status: 'PAID',
      customer: { source_id: 'sum-c' },
      items: [{ quantity: 1, price: 1000 }],
    });
    const t2 = tick();
    await post({
      source_id: 'sum-2',
      status: 'CREATED',
      customer: { source_id: 'sum-c' },
      items: [{ quantity: 1, price: 3000 }],
    });
    assert.deepEqual(await summary('sum-c'), sums(1000, 1, [1000, t1]), 'a CREATED order does not count');
    tick();
    await put('sum-2', { status: 'FULFILLED' });
    assert.deepEqual(await summary('sum-c'), sums(4000, 2, [3000, t2]), 'an order counts on its own date');
    tick();
    await put('sum-2', { status: 'CANCELED' });
    assert.deepEqual(
      await summary('sum-c'),
      sums(1000, 1, [1000, t1]),
      'the latest order left: the one before is last again',
    );
    tick();
    await put('sum-1', { status: 'CANCELED' });
    assert.deepEqual(await summary('sum-c'), sums(0, 0));
    tick();
    await put('sum-2', { status: 'PAID' });
    assert.deepEqual(await summary('sum-c'), sums(3000, 1, [3000, t2]));
  });

  it("follows a counted order's new amount (items, discounts) and moves its figures to its new customer", async () => {
    const t1 = tick();
    await post({
      source_id: 'mv-1',
      status: 'PAID',
      customer: { source_id: 'mv-a' },
      items: [{ quantity: 1, price: 1000 }],
    });
    tick();
    await put('mv-1', { items: [{ quantity: 3, price: 1000, discount_amount: 500 }], discount_amount: 100 });
    assert.deepEqual(await summary('mv-a'), sums(2400, 1, [2400, t1]), 'total_amount: after every discount');
    tick();
    await put('mv-1', { customer: { source_id: 'mv-b' } });
    assert.deepEqual([await summary('mv-a'), await summary('mv-b')], [sums(0, 0), sums(2400, 1, [2400, t1])]);
    assert.deepEqual(
      (await types('mv-b')).slice(-1),
      ['customer.order.updated'],
      "the event goes to the order's customer now",
    );
  });

  it('keeps a customer with orders (as buyer or referrer) from being deleted: 400 resource_in_use', async () => {
    tick();
    await post({ customer: { source_id: 'del-buyer' }, referrer: { source_id: 'del-referrer' } });
    for (const ref of ['del-buyer', 'del-referrer']) {
      const id = (await customer(ref)).id;
      const res = await server.request('DELETE', `/v1/customers/${ref}`);
      assert.deepEqual(
        [res.status, res.body.key, res.body.details],
        [400, 'resource_in_use', `Customer ${id} is still referenced by other records`],
      );
    }
  });

  it('keeps an order without a customer out of every feed and summary', async () => {
    tick();
    const res: TestResponse = await post({ status: 'PAID', items: [{ quantity: 1, price: 10 }] });
    assert.equal(res.status, 200);
    const events = sqliteOf(server.deps)
      .prepare("SELECT count(*) AS n FROM customer_events WHERE data LIKE '%' || ? || '%'")
      .get(res.body.id) as { n: number };
    assert.equal(events.n, 0);
  });
});
