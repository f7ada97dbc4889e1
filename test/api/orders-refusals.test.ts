import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint } from '../support/db.js';
import { errorBody, notFoundBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

/** Every refusal of the orders endpoints: the whole error body, and the database as it was. */
describe('orders: refusals write nothing', () => {
  let server: TestServer;
  let orderId: string;
  before(async () => {
    server = await startTestServer();
    const order = await server.request('POST', '/v1/orders', {
      body: { source_id: 'kept', status: 'PAID', customer: { source_id: 'c' }, items: [{ quantity: 1, price: 100 }] },
    });
    orderId = order.body.id;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  async function refused(
    method: string,
    path: string,
    body: unknown,
    expected: (res: TestResponse) => unknown,
  ): Promise<void> {
    const before = dbFingerprint(sqliteOf(server.deps));
    const res = await server.request(method, path, { body });
    assert.deepEqual(res.body, expected(res), `${method} ${path} ${JSON.stringify(body)?.slice(0, 200)}`);
    assert.equal(
      dbFingerprint(sqliteOf(server.deps)),
      before,
      `${method} ${path}: a refused request changed the database`,
    );
  }

  const invalid = (details: string) => (res: TestResponse) =>
    errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details });
  const invalidQuery = (details: string) => (res: TestResponse) =>
    errorBody(res, { code: 400, key: 'invalid_query_params', message: 'Invalid query params', details });

  it('refuses wrong types in the order, every problem at once', async () => {
    const body = {
      id: 5,
      source_id: '',
      status: 'SHIPPED',
      amount: -1,
      initial_amount: 1.5,
      discount_amount: '10',
      items: {},
      metadata: 'x',
      created_at: 'yesterday',
      referrer_id: 7,
      customer: [],
      referrer: { email: 'nope' },
    };
    const details = [
      'referrer_id must be a string or null',
      'source_id must not be empty',
      'id must be a string',
      'status must be one of: CREATED, PAID, CANCELED, FULFILLED',
      'discount_amount must be an integer',
      'initial_amount must be a non-negative integer',
      'amount must be a non-negative integer',
      'items must be an array',
      'metadata must be an object',
      'created_at must be an ISO 8601 date-time',
      'customer must be an object',
      'email must be a valid e-mail address',
    ];
    await refused('POST', '/v1/orders', body, invalid(details.join('; ')));
    // yup lists the messages in the order its tests settle, which differs between the two schemas.
    const sorted = (res: TestResponse) => ({
      ...res.body,
      details: String(res.body.details).split('; ').sort().join('; '),
    });
    const { id: _id, ...update } = body;
    const before = dbFingerprint(sqliteOf(server.deps));
    const res = await server.request('PUT', '/v1/orders/kept', { body: update });
    assert.deepEqual(
      sorted(res),
      invalid(
        details
          .filter((d) => !d.startsWith('id '))
          .sort()
          .join('; '),
      )(res),
    );
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it('refuses wrong types in an item, naming each by its path', async () => {
    const item = {
      sku_id: 1,
      product_id: '',
      related_object: 'service',
      source_id: {},
      quantity: 0,
      discount_quantity: -1,
      initial_quantity: 0,
      amount: 'x',
      discount_amount: 1e308,
      price: 2.5,
      product: { id: 5, override: 'yes', name: 7, metadata: [], price: -3 },
      sku: 'x',
      metadata: 3,
    };
    const details = [
      'sku_id must be a string',
      'product_id must not be empty',
      'source_id must be a string',
      'product.override must be a boolean',
      'product.id must be a string',
      'discount_amount must be a non-negative integer',
      'amount must be an integer',
      'related_object must be product or sku',
      'initial_quantity must be an integer of at least 1',
      'discount_quantity must be a non-negative integer',
      'quantity must be an integer of at least 1',
      'product.price must be a non-negative integer',
      'price must be a non-negative integer',
      'product.name must be a string',
      'product.metadata must be an object',
      'sku must be an object',
      'metadata must be an object',
    ];
    await refused(
      'POST',
      '/v1/orders',
      { items: [{ quantity: 1 }, item] },
      invalid(details.map((d) => `items[1].${d}`).join('; ')),
    );
  });

  it('refuses more than 500 items, a bad status, a body that is not an object', async () => {
    const items = Array.from({ length: 501 }, () => ({ quantity: 1, price: 1 }));
    await refused('POST', '/v1/orders', { items }, invalid('items must hold at most 500 items'));
    await refused('PUT', `/v1/orders/${orderId}`, { items }, invalid('items must hold at most 500 items'));
    await refused(
      'PUT',
      '/v1/orders/kept',
      { status: 'paid' },
      invalid('status must be one of: CREATED, PAID, CANCELED, FULFILLED'),
    );
    await refused('POST', '/v1/orders', [{ status: 'PAID' }], invalid('The body must be a JSON object'));
    await refused('PUT', '/v1/orders/kept', null, invalid('The body must be a JSON object'));
  });

  it('refuses discounts beyond what they discount, and amounts beyond 2^53', async () => {
    await refused(
      'POST',
      '/v1/orders',
      { customer: { source_id: 'new' }, items: [{ price: 10, quantity: 3, discount_amount: 40 }] },
      invalid("items[0].discount_amount must not exceed the item's amount (30)"),
    );
    await refused(
      'PUT',
      '/v1/orders/kept',
      { discount_amount: 101 },
      invalid("discount_amount and the items' discount_amount (101 in all) must not exceed amount (100)"),
    );
    await refused(
      'POST',
      '/v1/orders',
      { items: [{ price: 2 ** 52, quantity: 4 }] },
      invalid('items[0].amount (price x quantity) must be at most 9007199254740991'),
    );
    await refused(
      'POST',
      '/v1/orders',
      { items: [{ amount: Number.MAX_SAFE_INTEGER }, { amount: 1 }] },
      invalid('amount must be at most 9007199254740991'),
    );
  });

  it('refuses an unknown order (404) and an unknown customer id (404)', async () => {
    await refused('PUT', '/v1/orders/nope', { status: 'PAID' }, (res) => notFoundBody(res, 'order', 'nope'));
    await refused('GET', '/v1/orders/nope', undefined, (res) => notFoundBody(res, 'order', 'nope'));
    await refused('POST', '/v1/orders', { customer: { id: 'cust_nope' } }, (res) =>
      notFoundBody(res, 'customer', 'cust_nope'),
    );
    await refused('POST', '/v1/orders', { customer: { source_id: 'fresh' }, referrer_id: 'cust_nope' }, (res) =>
      notFoundBody(res, 'customer', 'cust_nope'),
    );
  });

  it('refuses bad list queries with every problem at once', async () => {
    await refused(
      'GET',
      '/v1/orders?limit=0&page=101&order=amount&status=paid&customer=a&customer=b',
      undefined,
      invalidQuery(
        [
          'Query parameter limit must be between 1 and 100',
          'Query parameter page must be between 1 and 100',
          'Query parameter customer must be given once',
          'Query parameter status must be one of: CREATED, PAID, CANCELED, FULFILLED',
        ].join('; '),
      ),
    );
    await refused(
      'GET',
      '/v1/orders?limit=101&page=x',
      undefined,
      invalidQuery('Query parameter limit must be between 1 and 100; Query parameter page must be an integer'),
    );
  });
});
