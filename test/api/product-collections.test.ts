import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertMatchesReference } from '../support/openapi.js';
import { errorBody, notFoundBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-06-01T09:00:00.000Z');
const tick = () => clock.advance(1000);

const invalid = (res: TestResponse, details: string) =>
  errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details });

describe('product collections: create, get, list, delete', () => {
  let server: TestServer;
  let shirt: { id: string };
  let shirtRed: { id: string; product_id: string };
  let mug: { id: string };
  before(async () => {
    server = await startTestServer({ clock });
    shirt = (
      await server.request('POST', '/v1/products', {
        body: { source_id: 'shirt', name: 'Shirt', price: 2000, attributes: ['color'] },
      })
    ).body;
    shirtRed = (
      await server.request('POST', '/v1/products/shirt/skus', {
        body: { source_id: 'shirt-red', attributes: { color: 'red' } },
      })
    ).body;
    mug = (await server.request('POST', '/v1/products', { body: { source_id: 'mug', name: 'Mug', price: 800 } })).body;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const create = (body: unknown) => {
    tick();
    return server.request('POST', '/v1/product-collections', { body });
  };

  it('creates a STATIC collection from products and SKUs given by id or source_id', async () => {
    const res = await create({
      type: 'STATIC',
      name: 'Picked',
      products: [
        { id: 'shirt', object: 'product' },
        { id: 'shirt-red', object: 'sku', product_id: 'shirt' },
        { id: mug.id, object: 'product' },
      ],
    });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^pc_[0-9A-Za-z]{16}$/);
    assert.deepEqual(res.body, {
      id: res.body.id,
      name: 'Picked',
      type: 'STATIC',
      products: [
        { id: shirt.id, object: 'product' },
        { id: shirtRed.id, product_id: shirt.id, object: 'sku' },
        { id: mug.id, object: 'product' },
      ],
      created_at: clock.now().toISOString(),
      object: 'products_collection',
    });
    const got = await server.request('GET', `/v1/product-collections/${res.body.id}`);
    assert.deepEqual([got.status, got.body], [200, res.body]);
  });

  it('creates an AUTO_UPDATE collection; the filter comes back as given, junction in lower case', async () => {
    const filter = {
      junction: 'AND',
      price: { conditions: { $less_than: [1000] } },
      'metadata.color': { conditions: { $in: ['red', 'blue'] } },
    };
    const res = await create({ type: 'AUTO_UPDATE', name: 'Cheap colours', filter });
    assert.deepEqual(res.body, {
      id: res.body.id,
      name: 'Cheap colours',
      type: 'AUTO_UPDATE',
      filter: { ...filter, junction: 'and' },
      created_at: clock.now().toISOString(),
      object: 'products_collection',
    });
  });

  it('refuses unknown products and SKUs (404), and a SKU under the wrong product', async () => {
    const product = await create({ type: 'STATIC', name: 'x1', products: [{ id: 'prod_nope', object: 'product' }] });
    assert.deepEqual(product.body, notFoundBody(product, 'product', 'prod_nope'));
    const sku = await create({
      type: 'STATIC',
      name: 'x2',
      products: [
        { id: 'shirt', object: 'product' },
        { id: 'sku_nope', object: 'sku' },
      ],
    });
    assert.deepEqual(
      [sku.status, sku.body.resource_type, sku.body.details],
      [404, 'sku', 'Cannot find sku with id sku_nope'],
    );
    const wrong = await create({
      type: 'STATIC',
      name: 'x3',
      products: [{ id: 'shirt-red', object: 'sku', product_id: 'mug' }],
    });
    assert.deepEqual(
      wrong.body,
      invalid(wrong, `products[0].product_id: sku ${shirtRed.id} belongs to product ${shirt.id}, not mug`),
    );
    const twice = await create({
      type: 'STATIC',
      name: 'x4',
      products: [
        { id: 'mug', object: 'product' },
        { id: mug.id, object: 'product' },
      ],
    });
    assert.deepEqual(twice.body, invalid(twice, `products[1]: product ${mug.id} is listed twice`));
    const list = await server.request('GET', '/v1/product-collections?limit=100');
    assert.deepEqual(
      list.body.data.map((c: { name: string }) => c.name).filter((n: string) => n.startsWith('x')),
      [],
    );
  });

  it('refuses bodies that mix up the two types, or lack what a type needs', async () => {
    const cases: Array<[unknown, string]> = [
      [{ type: 'STATIC', name: 'a' }, 'products is required for a STATIC collection'],
      [
        { type: 'STATIC', name: 'a', products: [], filter: { junction: 'and' } },
        'filter: only an AUTO_UPDATE collection has a filter',
      ],
      [{ type: 'AUTO_UPDATE', name: 'a' }, 'filter is required for an AUTO_UPDATE collection'],
      [
        { type: 'AUTO_UPDATE', name: 'a', products: [], filter: {} },
        'products: only a STATIC collection lists products',
      ],
      [
        { type: 'DYNAMIC', products: [{ id: 1, object: 'thing' }] },
        'name is required; type must be "STATIC" or "AUTO_UPDATE"; products[].id must be a string; products[].object must be "product" or "sku"',
      ],
      [[{ type: 'STATIC' }], 'The body must be a JSON object'],
    ];
    for (const [body, details] of cases) {
      const res = await create(body);
      assert.deepEqual([res.status, res.body], [400, invalid(res, details)]);
    }
  });

  it('refuses a filter naming an unknown field or operator, or the wrong kind of value, saying which', async () => {
    const res = await create({
      type: 'AUTO_UPDATE',
      name: 'bad filter',
      filter: {
        junction: 'and',
        colour: { conditions: { $is: ['red'] } },
        price: { conditions: { $between: [1, 2], $less_than: ['10'] } },
        created_at: { conditions: { $is_days_ago: ['3'] } },
        'metadata.tags': { conditions: { $count: [-1] } },
      },
    });
    assert.deepEqual(
      res.body,
      invalid(
        res,
        'filter.colour is not a known field; allowed: id, product_id, source_id, name, price, object, attributes, image_url, skus, created_at, updated_at, metadata.<key>; ' +
          'filter.price.conditions.$between is not a known operator; ' +
          'filter.price.conditions.$less_than must be an array of exactly one number; ' +
          'filter.created_at.conditions.$is_days_ago must be an array of exactly one non-negative integer (a number of days); ' +
          'filter.metadata.tags.conditions.$count must be an array of exactly one non-negative integer',
      ),
    );
  });

  it('a taken name is 409 duplicate_found', async () => {
    const res = await create({ type: 'STATIC', name: 'Picked', products: [] });
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 409,
        key: 'duplicate_found',
        message: 'Duplicated resource found',
        details: 'Duplicated products_collection exists with name Picked',
        resource_type: 'products_collection',
      }),
    );
  });

  it('lists collections exactly as the reference\'s "List Product Collections", valid against its schema', async () => {
    const res = await server.request('GET', '/v1/product-collections');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['object', 'data_ref', 'data', 'total']);
    assert.deepEqual([res.body.object, res.body.data_ref, res.body.total], ['list', 'data', 2]);
    assert.deepEqual(
      res.body.data.map((c: { name: string }) => c.name),
      ['Picked', 'Cheap colours'],
    );
    const picked = await server.request('GET', `/v1/product-collections/${res.body.data[0].id}`);
    assert.deepEqual(res.body.data[0], picked.body);
    assertMatchesReference('GET', '/v1/product-collections', 200, res.body);

    const paged = await server.request('GET', '/v1/product-collections?limit=1&page=2&order=-created_at');
    assert.deepEqual([paged.body.data.map((c: { name: string }) => c.name), paged.body.total], [['Picked'], 2]);
    const byType = await server.request('GET', '/v1/product-collections?order=-type');
    assert.deepEqual(
      byType.body.data.map((c: { type: string }) => c.type),
      ['STATIC', 'AUTO_UPDATE'],
    );
    const bad = await server.request('GET', '/v1/product-collections?page=0&order=name');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.key, 'invalid_query_params');
  });

  it('GET and DELETE of an unknown collection are 404 with resource_type products_collection', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await server.request(method, '/v1/product-collections/pc_nope');
      assert.deepEqual(res.body, notFoundBody(res, 'products_collection', 'pc_nope'));
    }
  });

  it('DELETE removes a collection (204)', async () => {
    const res = await create({ type: 'STATIC', name: 'Short-lived', products: [{ id: 'mug', object: 'product' }] });
    const deleted = await server.request('DELETE', `/v1/product-collections/${res.body.id}`);
    assert.deepEqual([deleted.status, deleted.text], [204, '']);
    assert.equal((await server.request('GET', `/v1/product-collections/${res.body.id}`)).status, 404);
  });
});
