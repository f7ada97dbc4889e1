import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The official client (@voucherify/sdk), unchanged, against the catalog endpoints. */
describe('catalog through @voucherify/sdk', () => {
  let server: TestServer;
  let client: ServerSideClient;
  before(async () => {
    server = await startTestServer();
    client = serverSideClient(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('creates, reads, updates and deletes products and SKUs', async () => {
    const product = await client.products.create({
      source_id: 'sdk-tee',
      name: 'SDK Tee',
      price: 1000,
      attributes: ['size'],
      metadata: { a: 1 },
    });
    assert.equal(product.source_id, 'sdk-tee');
    const sku = await client.products.createSku('sdk-tee', {
      source_id: 'sdk-tee-m',
      sku: 'M',
      price: 1100,
      attributes: { size: 'M' },
    });
    assert.equal((sku as typeof sku & { product_id: string }).product_id, product.id);

    const got = await client.products.get('sdk-tee');
    assert.deepEqual(
      got.skus?.data?.map((s) => s.id),
      [sku.id],
    );
    const skus = await client.products.listSkus(product.id);
    assert.deepEqual(
      [(skus as typeof skus & { data_ref: string }).data_ref, skus.total, skus.skus.map((s) => s.id)],
      ['skus', 1, [sku.id]],
    );
    assert.deepEqual(await client.products.getSku('sdk-tee-m'), sku);

    const updated = await client.products.update({ source_id: 'sdk-tee', price: 1200 });
    assert.equal(updated.price, 1200);
    const updatedSku = await client.products.updateSku('sdk-tee', { source_id: 'sdk-tee-m', sku: 'M', price: 1300 });
    assert.equal(updatedSku.price, 1300);
    const list = await client.products.list({ limit: 10, page: 1 });
    assert.deepEqual(
      list.products.map((p) => p.id),
      [product.id],
    );

    await client.products.deleteSku(product.id, sku.id, { force: true });
    await client.products.delete('sdk-tee', { force: true });
    await assert.rejects(client.products.get('sdk-tee'), (error: { code?: number; key?: string; message?: string }) => {
      assert.deepEqual([error.code, error.key, error.message], [404, 'not_found', 'Resource not found']);
      return true;
    });
  });

  it('creates, lists and deletes product collections and lists their products', async () => {
    const product = await client.products.create({ source_id: 'sdk-mug', price: 500, metadata: { color: 'red' } });
    const auto = await client.productCollections.create({
      type: 'AUTO_UPDATE',
      name: 'SDK cheap red',
      filter: {
        junction: 'and',
        price: { conditions: { $less_than: [1000] } },
        'metadata.color': { conditions: { $is: ['red'] } },
      },
    });
    const fixed = await client.productCollections.create({
      type: 'STATIC',
      name: 'SDK picked',
      products: [{ id: product.id, object: 'product' }],
    });
    const list = await client.productCollections.list({ limit: 10, page: 1 });
    assert.deepEqual(
      list.data.map((c) => c.id),
      [auto.id, fixed.id],
    );
    assert.deepEqual(await client.productCollections.get(auto.id), auto);
    for (const id of [auto.id, fixed.id]) {
      const members = await client.productCollections.listProducts(id, { limit: 10 });
      assert.deepEqual([members.total, members.data.map((m) => m.id)], [1, [product.id]]);
    }
    await client.productCollections.delete(fixed.id);
    assert.equal((await client.productCollections.list()).total, 1);
  });
});
