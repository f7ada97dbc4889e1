import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertMatchesReference } from '../support/openapi.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-05-01T08:00:00.000Z');
const tick = () => clock.advance(60_000);

describe('SKUs API', () => {
  let server: TestServer;
  let product: { id: string };
  before(async () => {
    server = await startTestServer({ clock });
    product = (
      await server.request('POST', '/v1/products', {
        body: { source_id: 'tee', name: 'Tee', attributes: ['color', 'size'] },
      })
    ).body;
    await server.request('POST', '/v1/products', { body: { source_id: 'other', attributes: ['color'] } });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const createSku = (productKey: string, body: unknown) => {
    tick();
    return server.request('POST', `/v1/products/${productKey}/skus`, { body });
  };

  it('POST creates a SKU under a product given by id or source_id', async () => {
    const body = {
      source_id: 'tee-red-m',
      sku: 'Red M',
      price: 2600,
      currency: 'EUR',
      attributes: { color: 'red', size: 'M' },
      image_url: 'https://img.example/tee-red.jpg',
      metadata: { weight: 0.2 },
    };
    const res = await createSku('tee', body);
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^sku_[0-9A-Za-z]{16}$/);
    assert.deepEqual(res.body, {
      id: res.body.id,
      source_id: 'tee-red-m',
      product_id: product.id,
      sku: 'Red M',
      price: 2600,
      currency: 'EUR',
      attributes: { color: 'red', size: 'M' },
      image_url: 'https://img.example/tee-red.jpg',
      metadata: { weight: 0.2 },
      created_at: clock.now().toISOString(),
      updated_at: null,
      object: 'sku',
    });
    const bare = await createSku(product.id, {});
    assert.deepEqual(bare.body, {
      id: bare.body.id,
      source_id: null,
      product_id: product.id,
      sku: null,
      price: null,
      currency: null,
      attributes: {},
      image_url: null,
      metadata: {},
      created_at: clock.now().toISOString(),
      updated_at: null,
      object: 'sku',
    });
  });

  it('refuses an attribute the product does not declare, and bad fields', async () => {
    const res = await createSku('tee', { attributes: { color: 'red', fabric: 'silk', fit: 'slim' } });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: `attributes: product ${product.id} does not declare fabric, fit (it declares: color, size)`,
      }),
    );
    const bad = await createSku('tee', {
      price: '1',
      attributes: ['color'],
      currency: 5,
      image_url: 'https://x.example/a.svg',
    });
    assert.deepEqual(
      bad.body,
      errorBody(bad, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details:
          'price must be an integer or null; currency must be a string or null; attributes must be an object; ' +
          'image_url must be an HTTPS address of a .png or .jpg file',
      }),
    );
    const missing = await createSku('nope', {});
    assert.deepEqual(missing.body, notFoundBody(missing, 'product', 'nope'));
  });

  it("POST with a source_id or id of this product's SKU updates it; another product's is 409", async () => {
    const created = await createSku('tee', { source_id: 'tee-upsert', sku: 'Up', price: 1 });
    const again = await createSku('tee', { source_id: 'tee-upsert', price: 2 });
    assert.deepEqual(again.body, { ...created.body, price: 2, updated_at: clock.now().toISOString() });
    const byId = await createSku('tee', { id: created.body.id, sku: 'Up 2' });
    assert.deepEqual(byId.body, { ...created.body, price: 2, sku: 'Up 2', updated_at: clock.now().toISOString() });
    const elsewhere = await createSku('other', { source_id: 'tee-upsert' });
    assert.deepEqual(
      elsewhere.body,
      errorBody(elsewhere, {
        code: 409,
        key: 'duplicate_found',
        message: 'Duplicated resource found',
        details: 'Duplicated sku exists with source_id tee-upsert',
        resource_type: 'sku',
      }),
    );
  });

  it('GET /v1/skus/{id or source_id}', async () => {
    const created = await createSku('tee', { source_id: 'tee-get', attributes: { size: 'S' } });
    for (const key of [created.body.id, 'tee-get']) {
      const res = await server.request('GET', `/v1/skus/${key}`);
      assert.deepEqual([res.status, res.body], [200, created.body]);
    }
    const missing = await server.request('GET', '/v1/skus/nope');
    assert.deepEqual(missing.body, notFoundBody(missing, 'sku', 'nope'));
  });

  it('PUT changes the fields sent; a SKU of another product is 404', async () => {
    const created = await createSku('tee', { source_id: 'tee-put', sku: 'Put', attributes: { size: 'S' } });
    tick();
    const res = await server.request('PUT', `/v1/products/tee/skus/tee-put`, {
      body: { price: 999, attributes: { size: 'L', color: 'blue' } },
    });
    assert.deepEqual(res.body, {
      ...created.body,
      price: 999,
      attributes: { size: 'L', color: 'blue' },
      updated_at: clock.now().toISOString(),
    });
    const refused = await server.request('PUT', `/v1/products/tee/skus/tee-put`, {
      body: { attributes: { shade: 'dark' } },
    });
    assert.equal(refused.status, 400);
    const wrongProduct = await server.request('PUT', `/v1/products/other/skus/tee-put`, { body: { price: 1 } });
    assert.deepEqual(wrongProduct.body, notFoundBody(wrongProduct, 'sku', 'tee-put'));
  });

  it('DELETE removes the SKU (204), then 404', async () => {
    const created = await createSku('tee', { source_id: 'tee-del' });
    const res = await server.request('DELETE', `/v1/products/${product.id}/skus/${created.body.id}`);
    assert.deepEqual([res.status, res.text], [204, '']);
    assert.equal((await server.request('GET', '/v1/skus/tee-del')).status, 404);
    const again = await server.request('DELETE', `/v1/products/tee/skus/tee-del`);
    assert.equal(again.status, 404);
    assert.equal(again.body.details, 'Cannot find sku with id tee-del');
  });
});

describe('GET /v1/products/{id}/skus (List SKUs in Product)', () => {
  let server: TestServer;
  const skuIds: string[] = [];
  const listClock = fixedClock('2024-05-02T00:00:00.000Z');
  before(async () => {
    server = await startTestServer({ clock: listClock });
    await server.request('POST', '/v1/products', { body: { source_id: 'p', attributes: ['n'] } });
    for (let i = 0; i < 4; i++) {
      listClock.advance(3_600_000);
      skuIds.push(
        (await server.request('POST', '/v1/products/p/skus', { body: { source_id: `s${i}`, attributes: { n: i } } }))
          .body.id,
      );
    }
    listClock.advance(3_600_000);
    await server.request('PUT', '/v1/products/p/skus/s0', { body: { price: 1 } });
  });
  after(() => server.close());

  const list = (query = '', key = 'p') => server.request('GET', `/v1/products/${key}/skus${query}`);
  const ids = (res: { body: { skus: Array<{ id: string }> } }) => res.body.skus.map((s) => s.id);

  it('answers data_ref skus, the array skus and total, valid against the reference', async () => {
    const res = await list();
    assert.equal(res.status, 200);
    const first = (await server.request('GET', `/v1/skus/${skuIds[0]}`)).body;
    assert.deepEqual(Object.keys(res.body), ['object', 'data_ref', 'skus', 'total']);
    assert.deepEqual([res.body.object, res.body.data_ref, res.body.total], ['list', 'skus', 4]);
    assert.deepEqual(res.body.skus[0], first);
    assert.deepEqual(ids(res), skuIds);
    assertMatchesReference('GET', '/v1/products/{productId}/skus', 200, res.body);
  });

  it('pages, orders and filters by dates', async () => {
    assert.deepEqual(ids(await list('?limit=3&page=2')), skuIds.slice(3));
    assert.deepEqual(ids(await list('?limit=1&page=100')), []);
    assert.deepEqual(ids(await list('?order=-created_at')), [...skuIds].reverse());
    assert.deepEqual(ids(await list('?order=-updated_at')), [skuIds[0], skuIds[3], skuIds[2], skuIds[1]]);
    assert.deepEqual(ids(await list('?order=campaign')), skuIds);
    const dated = await list('?start_date=2024-05-02T02:00:00Z&end_date=2024-05-02T03:00:00Z');
    assert.deepEqual([ids(dated), dated.body.total], [skuIds.slice(1, 3), 2]);
  });

  it('refuses page 101 and limit 101; an unknown product is 404 as the reference', async () => {
    const res = await list('?page=101&limit=101');
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_query_params',
        message: 'Invalid query params',
        details: 'Query parameter limit must be between 1 and 100; Query parameter page must be between 1 and 100',
      }),
    );
    const missing = await list('', 'nope');
    assert.equal(missing.status, 404);
    assertMatchesReference('GET', '/v1/products/{productId}/skus', 404, missing.body);
    assert.equal(missing.body.resource_type, 'product');
  });
});
