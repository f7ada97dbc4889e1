import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-04-01T00:00:00.000Z');

describe('GET /v1/products', () => {
  let server: TestServer;
  const ids: string[] = [];
  before(async () => {
    server = await startTestServer({ clock });
    for (let i = 0; i < 5; i++) {
      clock.advance(3_600_000);
      ids.push(
        (await server.request('POST', '/v1/products', { body: { source_id: `p${i}`, attributes: ['size'] } })).body.id,
      );
    }
    clock.advance(3_600_000);
    await server.request('POST', '/v1/products/p1/skus', { body: { source_id: 'p1-s', attributes: { size: 'L' } } });
    clock.advance(3_600_000);
    await server.request('PUT', '/v1/products/p3', { body: { price: 5 } });
    clock.advance(3_600_000);
    await server.request('PUT', '/v1/products/p0', { body: { price: 7 } });
  });
  after(() => server.close());

  const list = (query = '') => server.request('GET', `/v1/products${query}`);
  const idsOf = (body: { products: Array<{ id: string }> }) => body.products.map((p) => p.id);

  it('lists oldest first with data_ref products and the total, each product with its SKUs', async () => {
    const res = await list();
    assert.equal(res.status, 200);
    const product1 = (await server.request('GET', '/v1/products/p1')).body;
    const product2 = (await server.request('GET', '/v1/products/p2')).body;
    assert.deepEqual(Object.keys(res.body), ['object', 'data_ref', 'products', 'total']);
    assert.deepEqual([res.body.object, res.body.data_ref, res.body.total], ['list', 'products', 5]);
    assert.deepEqual(idsOf(res.body), ids);
    assert.deepEqual(res.body.products[1], product1);
    assert.equal(product1.skus.total, 1);
    assert.deepEqual(res.body.products[2], product2);
  });

  it('pages with limit and page, and orders by created_at or updated_at either way', async () => {
    assert.deepEqual(idsOf((await list('?limit=2&page=2')).body), ids.slice(2, 4));
    assert.deepEqual(idsOf((await list('?limit=2&page=3')).body), ids.slice(4));
    assert.deepEqual(idsOf((await list('?limit=2&page=4')).body), []);
    assert.deepEqual(idsOf((await list('?order=-created_at')).body), [...ids].reverse());
    // Never-updated products (updated_at null) come first in ascending order, by creation.
    assert.deepEqual(idsOf((await list('?order=updated_at')).body), [ids[1], ids[2], ids[4], ids[3], ids[0]]);
    assert.deepEqual(idsOf((await list('?order=-updated_at')).body), [ids[0], ids[3], ids[4], ids[2], ids[1]]);
    // Order values that name fields a product lacks keep the creation order.
    assert.deepEqual(idsOf((await list('?order=-code')).body), [...ids].reverse());
  });

  it('filters by start_date and end_date on created_at (the total follows)', async () => {
    const res = await list('?start_date=2024-04-01T02:00:00Z&end_date=2024-04-01T04:00:00.000Z');
    assert.deepEqual(idsOf(res.body), ids.slice(1, 4));
    assert.equal(res.body.total, 3);
  });

  it('refuses bad query parameters with every problem, never clamping', async () => {
    const res = await list('?limit=0&page=101&order=name&start_date=yesterday');
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_query_params',
        message: 'Invalid query params',
        details:
          'Query parameter limit must be between 1 and 100; Query parameter page must be between 1 and 100; ' +
          'Query parameter start_date must be an ISO 8601 date-time',
      }),
    );
  });
});
