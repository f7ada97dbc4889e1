import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertOrderReference, itemIds, itemObject } from '../modules/orders/fixtures.js';
import { dbFingerprint } from '../support/db.js';
import { errorBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const T0 = '2024-05-01T10:00:00.000Z';

/** Order items against the catalog: by id, by source id, created or replaced by inline blocks with override. */
describe('orders: items and the catalog', () => {
  let server: TestServer;
  const clock = fixedClock(T0);
  let phone: { id: string };
  let blue: { id: string };
  before(async () => {
    server = await startTestServer({ clock });
    phone = (
      await server.request('POST', '/v1/products', {
        body: { source_id: 'phone', name: 'Phone', price: 70_000, attributes: ['color'], metadata: { brand: 'X' } },
      })
    ).body;
    blue = (
      await server.request('POST', '/v1/products/phone/skus', {
        body: { source_id: 'phone-blue', sku: 'Blue', price: 72_000, attributes: { color: 'blue' } },
      })
    ).body;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const post = (body: unknown) => server.request('POST', '/v1/orders', { body });
  const catalogPhone = { id: '', source_id: 'phone', name: 'Phone', metadata: { brand: 'X' }, price: 70_000 };
  const phoneBlock = () => ({ ...catalogPhone, id: phone.id });
  const blueBlock = () => ({ id: blue.id, source_id: 'phone-blue', sku: 'Blue', metadata: {}, price: 72_000 });

  it('names products and SKUs by id and by source id; the price comes from the catalog when not sent', async () => {
    const res = await post({
      items: [
        { product_id: phone.id, quantity: 1 },
        { sku_id: blue.id, quantity: 2 },
        { source_id: 'phone', related_object: 'product', quantity: 1, price: 65_000 },
        { source_id: 'phone-blue', related_object: 'sku', quantity: 1 },
      ],
    });
    assert.equal(res.status, 200);
    const [a, b, c, d] = itemIds(res.body) as [string, string, string, string];
    assert.deepEqual(res.body.items, [
      itemObject(a, {
        product_id: phone.id,
        quantity: 1,
        amount: 70_000,
        price: 70_000,
        subtotal_amount: 70_000,
        product: phoneBlock(),
      }),
      itemObject(b, {
        product_id: phone.id,
        sku_id: blue.id,
        quantity: 2,
        amount: 144_000,
        price: 72_000,
        subtotal_amount: 144_000,
        product: phoneBlock(),
        sku: blueBlock(),
      }),
      itemObject(c, {
        source_id: 'phone',
        related_object: 'product',
        product_id: phone.id,
        quantity: 1,
        amount: 65_000,
        price: 65_000,
        subtotal_amount: 65_000,
        product: phoneBlock(),
      }),
      itemObject(d, {
        source_id: 'phone-blue',
        related_object: 'sku',
        product_id: phone.id,
        sku_id: blue.id,
        quantity: 1,
        amount: 72_000,
        price: 72_000,
        subtotal_amount: 72_000,
        product: phoneBlock(),
        sku: blueBlock(),
      }),
    ]);
    assert.equal(res.body.amount, 351_000);
    assertOrderReference('POST', res.body);
  });

  it("creates an unknown product or SKU from the item's block with override: true (a new SKU under its product, found or created)", async () => {
    const res = await post({
      items: [
        {
          source_id: 'case',
          related_object: 'product',
          quantity: 2,
          product: { name: 'Case', price: 1500, metadata: { color: 'red' }, override: true },
        },
        {
          source_id: 'comic-1',
          related_object: 'sku',
          quantity: 1,
          product: { source_id: 'books', name: 'Books', price: 2100, override: true },
          sku: { sku: 'Comics1', price: 1700, override: true },
        },
        {
          source_id: 'phone-red',
          related_object: 'sku',
          quantity: 1,
          product: { source_id: 'phone' },
          sku: { sku: 'Red', price: 71_000, override: true },
        },
      ],
    });
    assert.equal(res.status, 200);
    const caseProduct = (await server.request('GET', '/v1/products/case')).body;
    const books = (await server.request('GET', '/v1/products/books')).body;
    const comic = (await server.request('GET', '/v1/skus/comic-1')).body;
    const red = (await server.request('GET', '/v1/skus/phone-red')).body;
    assert.deepEqual(
      [caseProduct.name, caseProduct.price, caseProduct.metadata, caseProduct.created_at],
      ['Case', 1500, { color: 'red' }, T0],
    );
    assert.deepEqual(
      [books.name, comic.product_id, comic.sku, comic.price, red.product_id, red.price],
      ['Books', books.id, 'Comics1', 1700, phone.id, 71_000],
    );
    const [a, b, c] = itemIds(res.body) as [string, string, string];
    assert.deepEqual(res.body.items, [
      itemObject(a, {
        source_id: 'case',
        related_object: 'product',
        product_id: caseProduct.id,
        quantity: 2,
        amount: 3000,
        price: 1500,
        subtotal_amount: 3000,
        product: { id: caseProduct.id, source_id: 'case', name: 'Case', metadata: { color: 'red' }, price: 1500 },
      }),
      itemObject(b, {
        source_id: 'comic-1',
        related_object: 'sku',
        product_id: books.id,
        sku_id: comic.id,
        quantity: 1,
        amount: 1700,
        price: 1700,
        subtotal_amount: 1700,
        product: { id: books.id, source_id: 'books', name: 'Books', metadata: {}, price: 2100 },
        sku: { id: comic.id, source_id: 'comic-1', sku: 'Comics1', metadata: {}, price: 1700 },
      }),
      itemObject(c, {
        source_id: 'phone-red',
        related_object: 'sku',
        product_id: phone.id,
        sku_id: red.id,
        quantity: 1,
        amount: 71_000,
        price: 71_000,
        subtotal_amount: 71_000,
        product: phoneBlock(),
        sku: { id: red.id, source_id: 'phone-red', sku: 'Red', metadata: {}, price: 71_000 },
      }),
    ]);
  });

  it("without override, a block's values hold for the order only; with override: true they replace the catalog's", async () => {
    const local = await post({
      items: [
        {
          source_id: 'phone',
          related_object: 'product',
          quantity: 1,
          product: { name: 'Phone (promo)', price: 60_000 },
        },
      ],
    });
    assert.deepEqual(local.body.items[0].product, { ...phoneBlock(), name: 'Phone (promo)', price: 60_000 });
    assert.equal(local.body.items[0].price, 60_000);
    assert.deepEqual((await server.request('GET', '/v1/products/phone')).body.price, 70_000);

    clock.set('2024-05-02T00:00:00.000Z');
    const stored = await post({
      items: [
        {
          source_id: 'phone-blue',
          related_object: 'sku',
          quantity: 1,
          sku: { price: 69_000, override: true },
          product: { metadata: { brand: 'Y' }, override: true },
        },
      ],
    });
    const product = (await server.request('GET', '/v1/products/phone')).body;
    const sku = (await server.request('GET', '/v1/skus/phone-blue')).body;
    assert.deepEqual(
      [product.metadata, product.name, product.updated_at, sku.price, sku.sku, sku.updated_at],
      [{ brand: 'Y' }, 'Phone', clock.now().toISOString(), 69_000, 'Blue', clock.now().toISOString()],
    );
    assert.deepEqual(stored.body.items[0].sku, { ...blueBlock(), price: 69_000 });
    assert.deepEqual(stored.body.items[0].product, { ...phoneBlock(), metadata: { brand: 'Y' } });
    // Restore the catalog for the other tests.
    await server.request('PUT', '/v1/products/phone', { body: { metadata: { brand: 'X' } } });
    await server.request('PUT', '/v1/products/phone/skus/phone-blue', { body: { price: 72_000 } });
    clock.set(T0);
  });

  it('keeps an item with an inline block and no catalog reference as sent', async () => {
    const res = await post({ items: [{ quantity: 1, product: { name: 'Gift wrap', price: 300 } }] });
    const [a] = itemIds(res.body) as [string];
    assert.deepEqual(res.body.items, [
      itemObject(a, {
        quantity: 1,
        amount: 300,
        price: 300,
        subtotal_amount: 300,
        product: { name: 'Gift wrap', price: 300 },
      }),
    ]);
  });

  /** A refused body: its whole error body, and not one row written (not even the customer it names). */
  async function refused(body: unknown, expected: (res: TestResponse) => unknown) {
    const before = dbFingerprint(sqliteOf(server.deps));
    const res = await post({ customer: { source_id: 'never-stored' }, ...(body as object) });
    assert.deepEqual(res.body, expected(res));
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  }

  it("refuses a new SKU without its product, and a product_id that is not the SKU's product: 400", async () => {
    const invalid = (details: string) => (res: TestResponse) =>
      errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details });
    await refused(
      { items: [{ quantity: 1 }, { source_id: 'orphan', related_object: 'sku', sku: { sku: 'O', override: true } }] },
      invalid('items[1]: a new SKU (source_id orphan) needs its product: product_id or product.source_id'),
    );
    const other = (await server.request('POST', '/v1/products', { body: { source_id: 'other' } })).body;
    await refused(
      { items: [{ sku_id: blue.id, product_id: other.id }] },
      invalid(`items[0].product_id: SKU ${blue.id} belongs to product ${phone.id}, not ${other.id}`),
    );
  });

  it('refuses a new product whose name another product holds (409), writing nothing', async () => {
    await refused(
      { items: [{ source_id: 'phone-2', related_object: 'product', product: { name: 'Phone', override: true } }] },
      (res) =>
        errorBody(res, {
          code: 409,
          key: 'duplicate_found',
          message: 'Duplicated resource found',
          details: 'Duplicated product exists with name Phone',
          resource_type: 'product',
        }),
    );
  });
});
