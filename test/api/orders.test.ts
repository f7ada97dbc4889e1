import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertOrderReference, itemIds, itemObject, orderObject } from '../modules/orders/fixtures.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../support/server.js';

const T0 = '2024-05-01T10:00:00.000Z';
const T1 = '2024-05-02T10:00:00.000Z';

describe('orders: create, upsert, get, update', () => {
  let server: TestServer;
  const clock = fixedClock(T0);
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const post = (body: unknown) => server.request('POST', '/v1/orders', { body });

  it('creates an order from free items: amounts from price x quantity, zero discounts left out', async () => {
    clock.set(T0);
    const res = await post({
      items: [{ quantity: 2, price: 1500 }, { price: 700, metadata: { gift: true } }, { quantity: 3 }],
    });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^ord_[0-9A-Za-z]{16}$/);
    for (const id of itemIds(res.body)) assert.match(id, /^ordli_[0-9A-Za-z]{16}$/);
    const [a, b, c] = itemIds(res.body) as [string, string, string];
    assert.deepEqual(
      res.body,
      orderObject({
        id: res.body.id,
        created_at: T0,
        amount: 3700,
        items: [
          itemObject(a, { quantity: 2, amount: 3000, price: 1500, subtotal_amount: 3000 }),
          itemObject(b, { amount: 700, price: 700, subtotal_amount: 700, metadata: { gift: true } }),
          itemObject(c, { quantity: 3 }),
        ],
      }),
    );
    assertOrderReference('POST', res.body);
  });

  it('computes discounts: item subtotals, items_discount_amount, total_discount_amount, total_amount', async () => {
    clock.set(T0);
    const res = await post({
      source_id: 'disc-1',
      status: 'PAID',
      discount_amount: 500,
      initial_amount: 9000,
      metadata: { channel: 'web' },
      items: [
        {
          quantity: 1,
          price: 5000,
          discount_amount: 1000,
          initial_amount: 5000,
          initial_quantity: 1,
          discount_quantity: 1,
        },
        { quantity: 2, price: 1500, discount_amount: 300 },
      ],
    });
    const [a, b] = itemIds(res.body) as [string, string];
    assert.deepEqual(
      res.body,
      orderObject({
        id: res.body.id,
        source_id: 'disc-1',
        created_at: T0,
        status: 'PAID',
        amount: 8000,
        initial_amount: 9000,
        discount_amount: 500,
        items_discount_amount: 1300,
        total_discount_amount: 1800,
        total_amount: 6200,
        metadata: { channel: 'web' },
        items: [
          itemObject(a, {
            quantity: 1,
            discount_quantity: 1,
            initial_quantity: 1,
            amount: 5000,
            discount_amount: 1000,
            initial_amount: 5000,
            price: 5000,
            subtotal_amount: 4000,
          }),
          itemObject(b, { quantity: 2, amount: 3000, discount_amount: 300, price: 1500, subtotal_amount: 2700 }),
        ],
      }),
    );
    assertOrderReference('POST', res.body);
  });

  it("keeps a sent amount over the items' sum, and a sent item amount over price x quantity", async () => {
    clock.set(T0);
    const res = await post({ amount: 10_000, items: [{ quantity: 2, price: 1500, amount: 2500 }] });
    assert.deepEqual(
      [res.body.amount, res.body.total_amount, res.body.items[0].amount, res.body.items[0].subtotal_amount],
      [10_000, 10_000, 2500, 2500],
    );
  });

  it('gets an order by id and by source_id', async () => {
    clock.set(T0);
    const created = await post({ source_id: 'get me/1', items: [{ quantity: 1, price: 100 }] });
    const byId = await server.request('GET', `/v1/orders/${created.body.id}`);
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body, created.body);
    assertOrderReference('GET', byId.body);
    const bySource = await server.request('GET', `/v1/orders/${encodeURIComponent('get me/1')}`);
    assert.deepEqual(bySource.body, created.body);
  });

  it('upserts through POST by source_id: same id, items replaced, updated_at set; a re-send changing nothing changes nothing', async () => {
    clock.set(T0);
    const created = await post({ source_id: 'up-1', items: [{ quantity: 1, price: 100 }] });
    clock.set(T1);
    const updated = await post({ source_id: 'up-1', status: 'PAID', items: [{ quantity: 4, price: 100 }] });
    const [item] = itemIds(updated.body) as [string];
    assert.notEqual(item, created.body.items[0].id);
    assert.deepEqual(
      updated.body,
      orderObject({
        id: created.body.id,
        source_id: 'up-1',
        created_at: T0,
        updated_at: T1,
        status: 'PAID',
        amount: 400,
        items: [itemObject(item, { quantity: 4, amount: 400, price: 100, subtotal_amount: 400 })],
      }),
    );
    clock.set('2024-05-03T00:00:00.000Z');
    const again = await post({ source_id: 'up-1', status: 'PAID', items: [{ quantity: 4, price: 100 }] });
    assert.deepEqual(again.body, updated.body);
  });

  it('upserts through POST by id; an unknown id is 404', async () => {
    clock.set(T0);
    const created = await post({ metadata: { a: 1 } });
    clock.set(T1);
    const res = await post({ id: created.body.id, metadata: { a: 2 } });
    assert.deepEqual(
      res.body,
      orderObject({ id: created.body.id, created_at: T0, updated_at: T1, metadata: { a: 2 } }),
    );
    const missing = await post({ id: 'ord_nope', status: 'PAID' });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, notFoundBody(missing, 'order', 'ord_nope'));
  });

  it('PUT changes the given fields and keeps the rest; amounts follow new items; null clears source_id and metadata', async () => {
    clock.set(T0);
    const created = await post({
      source_id: 'put-1',
      discount_amount: 100,
      metadata: { a: 1 },
      items: [{ quantity: 1, price: 1000 }],
    });
    clock.set(T1);
    const status = await server.request('PUT', '/v1/orders/put-1', { body: { status: 'FULFILLED' } });
    assert.equal(status.status, 200);
    assert.deepEqual(status.body, { ...created.body, status: 'FULFILLED', updated_at: T1 });
    assertOrderReference('PUT', status.body);
    const items = await server.request('PUT', `/v1/orders/${created.body.id}`, {
      body: { items: [{ quantity: 3, price: 1000 }], source_id: null, metadata: null },
    });
    const [item] = itemIds(items.body) as [string];
    assert.deepEqual(
      items.body,
      orderObject({
        id: created.body.id,
        created_at: T0,
        updated_at: T1,
        status: 'FULFILLED',
        amount: 3000,
        discount_amount: 100,
        total_discount_amount: 100,
        total_amount: 2900,
        items: [itemObject(item, { quantity: 3, amount: 3000, price: 1000, subtotal_amount: 3000 })],
      }),
    );
    assert.equal((await server.request('GET', '/v1/orders/put-1')).status, 404);
  });

  it('PUT may change the source_id, but not to one another order holds (409); an unknown order is 404', async () => {
    clock.set(T0);
    const a = await post({ source_id: 'src-a' });
    await post({ source_id: 'src-b' });
    const moved = await server.request('PUT', '/v1/orders/src-a', { body: { source_id: 'src-c' } });
    assert.equal(moved.body.source_id, 'src-c');
    const taken = await server.request('PUT', '/v1/orders/src-c', { body: { source_id: 'src-b' } });
    assert.equal(taken.status, 409);
    assert.deepEqual(
      taken.body,
      errorBody(taken, {
        code: 409,
        key: 'duplicate_found',
        message: 'Duplicated resource found',
        details: 'Duplicated order exists with source_id src-b',
        resource_type: 'order',
      }),
    );
    assert.equal((await server.request('GET', `/v1/orders/${a.body.id}`)).body.source_id, 'src-c');
    const missing = await server.request('PUT', '/v1/orders/nobody', { body: { status: 'PAID' } });
    assert.deepEqual(missing.body, notFoundBody(missing, 'order', 'nobody'));
  });

  it('upserts the customer and the referrer by source_id with the fields sent, and takes a referrer_id', async () => {
    clock.set(T0);
    const res = await post({
      customer: { source_id: 'bob', name: 'Bob', email: 'bob@example.com' },
      referrer: { source_id: 'jane', name: 'Jane' },
    });
    const bob = await server.request('GET', '/v1/customers/bob');
    const jane = await server.request('GET', '/v1/customers/jane');
    assert.deepEqual([bob.body.name, bob.body.email, jane.body.name], ['Bob', 'bob@example.com', 'Jane']);
    assert.deepEqual(
      res.body,
      orderObject({ id: res.body.id, created_at: T0, customer_id: bob.body.id, referrer_id: jane.body.id }),
    );
    assertOrderReference('POST', res.body);
    clock.set(T1);
    const swapped = await server.request('PUT', `/v1/orders/${res.body.id}`, {
      body: { customer: { id: jane.body.id }, referrer_id: bob.body.id },
    });
    assert.deepEqual(
      swapped.body,
      orderObject({
        id: res.body.id,
        created_at: T0,
        updated_at: T1,
        customer_id: jane.body.id,
        referrer_id: bob.body.id,
      }),
    );
    const cleared = await server.request('PUT', `/v1/orders/${res.body.id}`, { body: { referrer_id: null } });
    assert.equal(cleared.body.referrer_id, null);
    assert.equal('referrer' in cleared.body, false);
    const unknown = await server.request('PUT', `/v1/orders/${res.body.id}`, { body: { referrer_id: 'cust_nope' } });
    assert.deepEqual(unknown.body, notFoundBody(unknown, 'customer', 'cust_nope'));
  });

  it('accepts and ignores created_at: the API dates an order itself', async () => {
    clock.set(T0);
    const res = await post({ created_at: '2020-01-01T00:00:00Z' });
    assert.equal(res.body.created_at, T0);
  });
});
