import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-06-01T00:00:00.000Z');
const HOUR = 3_600_000;

describe('GET /v1/product-collections/{id}/products', () => {
  let server: TestServer;
  const product = async (body: Record<string, unknown>) => {
    clock.advance(HOUR);
    return (await server.request('POST', '/v1/products', { body })).body;
  };
  const sku = async (productKey: string, body: Record<string, unknown>) => {
    clock.advance(HOUR);
    return (await server.request('POST', `/v1/products/${productKey}/skus`, { body })).body;
  };
  const collection = async (body: Record<string, unknown>) =>
    (await server.request('POST', '/v1/product-collections', { body })).body;
  const members = (id: string, query = '') => server.request('GET', `/v1/product-collections/${id}/products${query}`);
  const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((m) => m.id);

  before(async () => {
    server = await startTestServer({ clock });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('lists a STATIC collection: products as products, SKUs with their product, oldest first', async () => {
    const tee = await product({
      source_id: 'tee',
      name: 'Tee',
      price: 1500,
      attributes: ['size'],
      metadata: { color: 'red' },
    });
    const teeS = await sku('tee', { source_id: 'tee-s', sku: 'Tee S', attributes: { size: 'S' } });
    const cap = await product({ source_id: 'cap', name: 'Cap' });
    const picked = await collection({
      type: 'STATIC',
      name: 'Static',
      products: [
        { id: 'cap', object: 'product' },
        { id: 'tee-s', object: 'sku' },
        { id: 'tee', object: 'product' },
      ],
    });
    const res = await members(picked.id);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      object: 'list',
      data_ref: 'data',
      data: [
        tee,
        {
          ...teeS,
          product: {
            id: tee.id,
            source_id: 'tee',
            name: 'Tee',
            price: 1500,
            attributes: ['size'],
            metadata: { color: 'red' },
            object: 'product',
          },
        },
        cap,
      ],
      total: 3,
    });
    assert.deepEqual(ids(await members(picked.id, '?limit=1&page=2')), [teeS.id]);
    assert.equal((await members(picked.id, '?limit=1&page=2')).body.total, 3);
    assert.deepEqual(ids(await members(picked.id, '?order=-created_at')), [cap.id, teeS.id, tee.id]);

    // A deleted SKU or product leaves the collection and its definition.
    await server.request('DELETE', '/v1/products/tee/skus/tee-s');
    await server.request('DELETE', '/v1/products/cap');
    const after = await members(picked.id);
    assert.deepEqual([ids(after), after.body.total], [[tee.id], 1]);
    const definition = await server.request('GET', `/v1/product-collections/${picked.id}`);
    assert.deepEqual(definition.body.products, [{ id: tee.id, object: 'product' }]);
  });

  it('evaluates an AUTO_UPDATE collection live: members come and go as products change', async () => {
    const cheapRed = await collection({
      type: 'AUTO_UPDATE',
      name: 'Cheap red',
      filter: {
        junction: 'and',
        price: { conditions: { $less_than: [1000] } },
        'metadata.color': { conditions: { $is: ['red'] } },
      },
    });
    assert.deepEqual((await members(cheapRed.id)).body, { object: 'list', data_ref: 'data', data: [], total: 0 });

    const sock = await product({ source_id: 'sock', price: 300, attributes: ['size'], metadata: { color: 'red' } });
    await sku('sock', { source_id: 'sock-blue', price: 350, metadata: { color: 'blue' } });
    await sku('sock', { source_id: 'sock-red', price: 2000, metadata: { color: 'red' } });
    const sockRedCheap = await sku('sock', { source_id: 'sock-red-cheap', price: 400, metadata: { color: 'red' } });
    let res = await members(cheapRed.id);
    assert.deepEqual(ids(res), [sock.id, sockRedCheap.id]);
    assert.deepEqual(res.body.data[1].product.id, sock.id);

    clock.advance(HOUR);
    await server.request('PUT', '/v1/products/sock', { body: { price: 1200 } });
    res = await members(cheapRed.id);
    assert.deepEqual([ids(res), res.body.total], [[sockRedCheap.id], 1]);
  });

  it('moves relative-date collections with the clock', async () => {
    const fresh = await collection({
      type: 'AUTO_UPDATE',
      name: 'New this day',
      filter: {
        junction: 'and',
        created_at: { conditions: { $less_than_ago: [1] } },
        object: { conditions: { $is: ['product'] } },
      },
    });
    const products = (await server.request('GET', '/v1/products')).body.products.map((p: { id: string }) => p.id);
    assert.equal(products.length, 2);
    assert.deepEqual(ids(await members(fresh.id)), products);
    clock.advance(2 * 24 * HOUR);
    assert.deepEqual(ids(await members(fresh.id)), []);
    const lamp = await product({ source_id: 'lamp' });
    assert.deepEqual(ids(await members(fresh.id)), [lamp.id]);
  });

  it('pages with starting_after (created after it, or before it when descending); total counts the whole collection', async () => {
    const all = await collection({
      type: 'AUTO_UPDATE',
      name: 'Everything',
      filter: { junction: 'or', object: { conditions: { $in: ['product', 'sku'] } } },
    });
    const every = await members(all.id, '?limit=100');
    const cut = every.body.data[2].created_at;
    const later = await members(all.id, `?starting_after=${cut}`);
    assert.deepEqual(ids(later), ids(every).slice(3));
    assert.equal(later.body.total, every.body.total);
    const earlier = await members(all.id, `?starting_after=${cut}&order=-created_at`);
    assert.deepEqual(ids(earlier), ids(every).slice(0, 2).reverse());
    const beyond = await members(all.id, '?page=100&limit=100');
    assert.deepEqual([beyond.body.data, beyond.body.total], [[], every.body.total]);
  });

  it('refuses bad query parameters and unknown collections', async () => {
    const bad = await members('pc_any', '?limit=500&starting_after=later');
    assert.deepEqual(
      bad.body,
      errorBody(bad, {
        code: 400,
        key: 'invalid_query_params',
        message: 'Invalid query params',
        details:
          'Query parameter limit must be between 1 and 100; Query parameter starting_after must be an ISO 8601 date-time',
      }),
    );
    const missing = await members('pc_nope');
    assert.deepEqual(missing.body, notFoundBody(missing, 'products_collection', 'pc_nope'));
  });

  it('opens to the product-collections scope, not to the products scope', async () => {
    const token = async (scope: string) =>
      (
        await server.request('POST', '/v1/oauth/token', {
          raw: `grant_type=client_credentials&scope=${scope}`,
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        })
      ).body.access_token as string;
    const collections = await server.request('GET', '/v1/product-collections', {
      auth: { bearer: await token('product-collections') },
    });
    assert.equal(collections.status, 200);
    const products = await token('products');
    assert.equal((await server.request('GET', '/v1/product-collections', { auth: { bearer: products } })).status, 403);
    assert.equal((await server.request('GET', '/v1/products', { auth: { bearer: products } })).status, 200);
    assert.equal((await server.request('GET', '/v1/skus/nope', { auth: { bearer: products } })).status, 403);
    assert.equal((await server.request('GET', '/v1/skus/nope', { auth: { bearer: await token('skus') } })).status, 404);
  });
});
