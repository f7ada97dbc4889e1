import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/server.js';

/** Uniqueness under concurrent writers: every write transaction is IMMEDIATE, so check-then-insert holds. */
describe('products under concurrent requests', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('20 concurrent upserts of one new source_id make exactly one product', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.request('POST', '/v1/products', { body: { source_id: 'race', price: i } }),
      ),
    );
    assert.deepEqual(new Set(answers.map((r) => r.status)), new Set([200]));
    assert.equal(new Set(answers.map((r) => r.body.id)).size, 1);
    const list = await server.request('GET', '/v1/products?limit=100');
    assert.equal(list.body.total, 1);
    assert.ok(answers.some((r) => r.body.price === list.body.products[0].price));
  });

  it('20 concurrent creates of one name: one wins, the others are 409', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => server.request('POST', '/v1/products', { body: { name: 'Contested' } })),
    );
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, ...Array(19).fill(409)]);
  });

  it('20 concurrent SKU creates with one source_id under one product make one SKU', async () => {
    const product = await server.request('POST', '/v1/products', {
      body: { source_id: 'sku-race', attributes: ['n'] },
    });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.request('POST', '/v1/products/sku-race/skus', { body: { source_id: 'one-sku', attributes: { n: i } } }),
      ),
    );
    assert.deepEqual(new Set(answers.map((r) => r.status)), new Set([200]));
    assert.equal(new Set(answers.map((r) => r.body.id)).size, 1);
    const skus = await server.request('GET', `/v1/products/${product.body.id}/skus`);
    assert.equal(skus.body.total, 1);
  });
});
