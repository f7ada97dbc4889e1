import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertMatchesReference } from '../support/openapi.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-03-01T10:00:00.000Z');
const tick = () => clock.advance(1000);

const shirt = {
  source_id: 'shirt-1',
  name: 'Shirt',
  price: 2500,
  attributes: ['color', 'size'],
  metadata: { vendor: 'Acme', organic: true },
  image_url: 'https://img.example/shirt.PNG',
};

describe('products API', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const post = async (body: unknown) => {
    tick();
    return server.request('POST', '/v1/products', { body });
  };

  it('POST creates a product with every field, and defaults for the rest', async () => {
    const full = await post(shirt);
    assert.equal(full.status, 200);
    assert.match(full.body.id, /^prod_[0-9A-Za-z]{16}$/);
    assert.deepEqual(full.body, {
      id: full.body.id,
      ...shirt,
      created_at: clock.now().toISOString(),
      updated_at: null,
      object: 'product',
    });

    const bare = await post({});
    assert.equal(bare.status, 200);
    assert.deepEqual(bare.body, {
      id: bare.body.id,
      source_id: null,
      name: null,
      price: null,
      attributes: [],
      metadata: {},
      image_url: null,
      created_at: clock.now().toISOString(),
      updated_at: null,
      object: 'product',
    });
  });

  it('POST with a known source_id or id updates that product (upsert), keeping what is not sent', async () => {
    const created = await post({ source_id: 'upsert-1', name: 'Lamp', price: 100, metadata: { a: 1 } });
    const createdAt = created.body.created_at;
    const bySource = await post({ source_id: 'upsert-1', price: 150, image_url: null });
    assert.equal(bySource.status, 200);
    assert.deepEqual(bySource.body, {
      ...created.body,
      price: 150,
      updated_at: clock.now().toISOString(),
    });
    const byId = await post({ id: created.body.id, name: 'Desk lamp', metadata: { b: 2 } });
    assert.deepEqual(byId.body, {
      ...created.body,
      name: 'Desk lamp',
      price: 150,
      metadata: { b: 2 },
      created_at: createdAt,
      updated_at: clock.now().toISOString(),
    });
    const list = await server.request('GET', '/v1/products?limit=100');
    assert.equal(list.body.products.filter((p: { source_id: string }) => p.source_id === 'upsert-1').length, 1);
  });

  it('POST with an unknown id is 404: ids are assigned, never chosen', async () => {
    const res = await post({ id: 'prod_nope', name: 'x' });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, notFoundBody(res, 'product', 'prod_nope'));
  });

  it('refuses an invalid body, listing every problem', async () => {
    const res = await post({
      price: '12',
      image_url: 'http://img.example/a.png',
      attributes: [1],
      metadata: [],
      name: 5,
      source_id: '',
    });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details:
          'source_id must not be empty; name must be a string or null; price must be an integer or null; ' +
          'attributes must be an array of strings; metadata must be an object; ' +
          'image_url must be an HTTPS address of a .png or .jpg file',
      }),
    );
  });

  it('refuses a price that is not an integer, an image that is not .png or .jpg, and a body that is not an object', async () => {
    const cases: Array<[unknown, string]> = [
      [{ price: 12.5 }, 'price must be an integer or null'],
      [{ price: 1e20 }, 'price must be an integer or null'],
      [{ image_url: 'https://img.example/a.gif' }, 'image_url must be an HTTPS address of a .png or .jpg file'],
      [{ image_url: 'not a url' }, 'image_url must be an HTTPS address of a .png or .jpg file'],
      [{ metadata: null }, 'metadata must be an object'],
      [{ attributes: 'color' }, 'attributes must be an array of strings'],
      [[{ name: 'x' }], 'The body must be a JSON object'],
    ];
    for (const [body, details] of cases) {
      const res = await post(body);
      assert.deepEqual(
        [res.status, res.body],
        [400, errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details })],
      );
    }
  });

  it('a taken name or source_id is 409 duplicate_found', async () => {
    await post({ name: 'Unique name' });
    const res = await post({ name: 'Unique name' });
    assert.equal(res.status, 409);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 409,
        key: 'duplicate_found',
        message: 'Duplicated resource found',
        details: 'Duplicated product exists with name Unique name',
        resource_type: 'product',
      }),
    );
    const other = await post({ source_id: 'other-src' });
    const put = await server.request('PUT', `/v1/products/${other.body.id}`, { body: { source_id: 'shirt-1' } });
    assert.equal(put.status, 409);
    assert.equal(put.body.details, 'Duplicated product exists with source_id shirt-1');
  });

  it('GET by id or source_id answers the product with its SKUs (data_ref data), as the reference', async () => {
    const product = await post({ source_id: 'phone', name: 'Phone', attributes: ['memory'] });
    tick();
    const sku = await server.request('POST', '/v1/products/phone/skus', {
      body: { sku: 'Phone 64', attributes: { memory: '64' } },
    });
    for (const key of [product.body.id, 'phone']) {
      const res = await server.request('GET', `/v1/products/${key}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        ...product.body,
        skus: { object: 'list', data_ref: 'data', data: [sku.body], total: 1 },
      });
      assertMatchesReference('GET', '/v1/products/{productId}', 200, res.body);
    }
    const missing = await server.request('GET', '/v1/products/nope');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, notFoundBody(missing, 'product', 'nope'));
    assertMatchesReference('GET', '/v1/products/{productId}', 404, missing.body);
  });

  it('PUT changes only the fields sent', async () => {
    const created = await post({ source_id: 'put-me', name: 'Before', price: 10, attributes: ['a'] });
    tick();
    const res = await server.request('PUT', '/v1/products/put-me', {
      body: { name: 'After', metadata: { x: [1, 2] }, id: 'ignored' },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      ...created.body,
      name: 'After',
      metadata: { x: [1, 2] },
      updated_at: clock.now().toISOString(),
    });
    const missing = await server.request('PUT', '/v1/products/nope', { body: { name: 'x' } });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.details, 'Cannot find product with id nope');
  });

  it('PUT may not drop an attribute that a SKU sets', async () => {
    await post({ source_id: 'attr-prod', attributes: ['color', 'size'] });
    await server.request('POST', '/v1/products/attr-prod/skus', { body: { attributes: { size: 'M' } } });
    const res = await server.request('PUT', '/v1/products/attr-prod', { body: { attributes: ['color'] } });
    assert.equal(res.status, 400);
    const id = (await server.request('GET', '/v1/products/attr-prod')).body.id;
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: `attributes: SKUs of product ${id} set size; remove it from them first`,
      }),
    );
    const ok = await server.request('PUT', '/v1/products/attr-prod', { body: { attributes: ['size', 'weight'] } });
    assert.deepEqual(ok.body.attributes, ['size', 'weight']);
  });

  it('DELETE removes the product and its SKUs (204), then 404', async () => {
    await post({ source_id: 'doomed', attributes: ['c'] });
    const sku = await server.request('POST', '/v1/products/doomed/skus', {
      body: { source_id: 'doomed-sku', attributes: { c: 1 } },
    });
    const res = await server.request('DELETE', '/v1/products/doomed?force=true');
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal((await server.request('GET', '/v1/products/doomed')).status, 404);
    const skuGone = await server.request('GET', `/v1/skus/${sku.body.id}`);
    assert.equal(skuGone.status, 404);
    const again = await server.request('DELETE', '/v1/products/doomed');
    assert.deepEqual(again.body, notFoundBody(again, 'product', 'doomed'));
  });
});
