import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertOrderReference, itemIds, itemObject, orderObject } from '../modules/orders/fixtures.js';
import { serverSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const T0 = '2024-05-01T10:00:00.000Z';

/**
 * Issue 27, part 3: an item whose product or SKU the catalog does not know (never made, or
 * deleted) is stored as given, with no catalog link, by create-order, validations and
 * redemptions; an inline block without `override: true` describes the item and leaves the
 * catalog alone.
 */
describe('order items the catalog does not know', () => {
  let server: TestServer;
  let gone: { id: string };
  let ruleVoucher: string;
  const catalogRows = () =>
    sqliteOf(server.deps)
      .prepare('SELECT (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM skus) AS skus')
      .get();

  before(async () => {
    server = await startTestServer({ clock: fixedClock(T0) });
    gone = (await server.request('POST', '/v1/products', { body: { source_id: 'gone', name: 'Gone', price: 900 } }))
      .body;
    // A voucher for the `gone` product only, made before the product is deleted.
    const rule = await server.request('POST', '/v1/validation-rules', {
      body: { name: 'Gone only', applicable_to: { included: [{ object: 'product', id: gone.id }] } },
    });
    const voucher = await server.request('POST', '/v1/vouchers/GONE10', {
      body: {
        type: 'DISCOUNT_VOUCHER',
        discount: { type: 'PERCENT', percent_off: 10 },
        validation_rules: [rule.body.id],
      },
    });
    assert.equal(voucher.status, 200, voucher.text);
    ruleVoucher = voucher.body.code;
    await server.request('POST', '/v1/vouchers/PLAIN5', {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 5 } },
    });
    assert.equal((await server.request('DELETE', '/v1/products/gone')).status, 204);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('POST /v1/orders stores unknown and deleted product and SKU ids, and unknown source ids, as given', async () => {
    const before = catalogRows();
    const res = await server.request('POST', '/v1/orders', {
      body: {
        items: [
          { product_id: 'prod_nope', quantity: 1, price: 100 },
          { sku_id: 'sku_nope', quantity: 2, price: 200 },
          { product_id: gone.id, quantity: 1, price: 900 },
          { source_id: 'nothing', related_object: 'product', quantity: 1, price: 300 },
          {
            source_id: 'no-sku',
            related_object: 'sku',
            quantity: 1,
            price: 50,
            sku: { sku: 'X' },
            product: { source_id: 'unknown-parent' },
          },
          { source_id: 'case', related_object: 'product', quantity: 2, product: { name: 'Case', price: 1500 } },
          { source_id: 'bare', related_object: 'product', quantity: 1, price: 10, product: { override: true } },
        ],
      },
    });
    assert.equal(res.status, 200, res.text);
    const [a, b, c, d, e, f, g] = itemIds(res.body) as [string, string, string, string, string, string, string];
    assert.deepEqual(
      res.body,
      orderObject({
        id: res.body.id,
        created_at: T0,
        amount: 4_760,
        items: [
          itemObject(a, { product_id: 'prod_nope', quantity: 1, amount: 100, price: 100, subtotal_amount: 100 }),
          itemObject(b, { sku_id: 'sku_nope', quantity: 2, amount: 400, price: 200, subtotal_amount: 400 }),
          itemObject(c, { product_id: gone.id, quantity: 1, amount: 900, price: 900, subtotal_amount: 900 }),
          itemObject(d, {
            source_id: 'nothing',
            related_object: 'product',
            quantity: 1,
            amount: 300,
            price: 300,
            subtotal_amount: 300,
          }),
          itemObject(e, {
            source_id: 'no-sku',
            related_object: 'sku',
            quantity: 1,
            amount: 50,
            price: 50,
            subtotal_amount: 50,
            product: { source_id: 'unknown-parent' },
            sku: { sku: 'X' },
          }),
          itemObject(f, {
            source_id: 'case',
            related_object: 'product',
            quantity: 2,
            amount: 3_000,
            price: 1_500,
            subtotal_amount: 3_000,
            product: { name: 'Case', price: 1_500 },
          }),
          itemObject(g, {
            source_id: 'bare',
            related_object: 'product',
            quantity: 1,
            amount: 10,
            price: 10,
            subtotal_amount: 10,
          }),
        ],
      }),
    );
    assertOrderReference('POST', res.body);
    // No block without override: true wrote the catalog.
    assert.deepEqual(catalogRows(), before);
    assert.equal((await server.request('GET', '/v1/products/case')).status, 404);
  });

  it('the official client: orders.create with an unknown product_id works unchanged', async () => {
    const order = await serverSideClient(server).orders.create({
      source_id: 'sdk-order',
      items: [{ product_id: 'prod_sdk_nope', quantity: 3, price: 100 }],
    });
    assert.deepEqual(
      [order.source_id, order.amount, order.items?.map((i) => [i.product_id, i.amount])],
      ['sdk-order', 300, [['prod_sdk_nope', 300]]],
    );
  });

  it('POST /v1/validations goes on; a product rule matches an unlinked item by the id it was sent with, never by a source id', async () => {
    const validate = (items: unknown[]) =>
      server.request('POST', '/v1/validations', {
        body: { redeemables: [{ object: 'voucher', id: ruleVoucher }], order: { items } },
      });
    const byId = await validate([
      { product_id: gone.id, quantity: 1, price: 1_000 },
      { sku_id: 'sku_nope', quantity: 1, price: 500 },
    ]);
    assert.equal(byId.status, 200, byId.text);
    // The 10% goes to the item sent with the deleted product's id, and only to it.
    const [applicable] = byId.body.redeemables;
    assert.deepEqual(
      [
        byId.body.valid,
        applicable.status,
        applicable.applicable_to.data.map((d: { id: string; order_item_indices: number[] }) => [
          d.id,
          d.order_item_indices,
        ]),
      ],
      [true, 'APPLICABLE', [[gone.id, [0]]]],
    );
    assert.deepEqual(
      byId.body.order.items.map((i: Record<string, unknown>) => [i.product_id, i.sku_id, i.amount, i.discount_amount]),
      [
        [gone.id, undefined, 1_000, 100],
        [undefined, 'sku_nope', 500, 0],
      ],
    );
    // A source id the catalog no longer knows links the item to nothing: the rule names no item of it.
    const bySource = await validate([{ source_id: 'gone', related_object: 'product', quantity: 1, price: 1_000 }]);
    assert.equal(bySource.status, 200, bySource.text);
    assert.deepEqual(
      [
        bySource.body.valid,
        bySource.body.order.total_discount_amount ?? 0,
        bySource.body.order.items.map((i: Record<string, unknown>) => [i.source_id, i.product_id, i.discount_amount]),
      ],
      [true, 0, [['gone', undefined, 0]]],
    );
  });

  it('redemptions go on too: the official client redeems with an unknown SKU and the order keeps it as given', async () => {
    const before = catalogRows();
    const client = serverSideClient(server);
    const res = await client.redemptions.redeemStackable({
      redeemables: [{ object: 'voucher', id: 'PLAIN5' }],
      order: {
        items: [
          { sku_id: 'sku_deleted_long_ago', quantity: 1, price: 700 },
          { source_id: 'mug', related_object: 'product', quantity: 1, price: 300, product: { name: 'Mug' } },
        ],
      },
    });
    assert.deepEqual(
      [
        res.redemptions.length,
        res.order?.amount,
        res.order?.total_amount,
        res.order?.items?.map((i) => [i.sku_id, i.source_id, i.product]),
      ],
      [
        1,
        1_000,
        995,
        [
          ['sku_deleted_long_ago', undefined, undefined],
          [undefined, 'mug', { name: 'Mug' }],
        ],
      ],
    );
    assert.deepEqual(catalogRows(), before);
  });
});
