import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../../src/lib/clock.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fingerprintBut, percentVoucher } from './fixtures.js';
import { sqliteOf } from '../../support/sqlite.js';

/**
 * A validation previews its customer and order from reads alone (order-preview.service previewOrder,
 * customers/catalog preview*): an order whose items create a product and a SKU from their
 * blocks (override: true) and override an existing product, for a customer that does not exist yet, is
 * answered exactly as the redemption of the same body then stores it (ids aside: those the
 * validation made up are never stored), and the validation writes nothing but the customer it
 * names and its event.
 */
describe('validations preview what a redemption would store', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock: fixedClock('2024-05-01T10:00:00.000Z') });
    await percentVoucher(server, 'PV-PCT');
    const product = await server.request('POST', '/v1/products', {
      body: { source_id: 'pv-existing', name: 'Existing', price: 400 },
    });
    assert.equal(product.status, 200, product.text);
  });
  after(() => server.close());

  /** What the customer a validation names writes: the row (with its count) and its events. */
  const CUSTOMER_TABLES = ['customers', 'customer_counts', 'customer_events'];

  /** Ids replaced by their prefix: the validation's made-up ids and the redemption's stored ones differ. */
  const masked = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value), (_key, v) =>
      typeof v === 'string' && /^(prod|sku|ordli|cust|ord)_[0-9A-Za-z]+$/.test(v) ? v.split('_')[0] : v,
    );
  const figures = (order: Record<string, unknown>) => {
    const { id: _id, redemptions: _redemptions, updated_at: _updated, ...rest } = order;
    return masked(rest);
  };

  it('answers the order the redemption then stores, and writes no order, customer row change, product or SKU', async () => {
    const body = {
      customer: { source_id: 'pv-new', name: 'Previewed' },
      order: {
        source_id: 'pv-order',
        items: [
          { source_id: 'pv-prod', product: { name: 'Preview product', price: 700, override: true }, quantity: 2 },
          {
            related_object: 'sku',
            source_id: 'pv-sku',
            sku: { sku: 'PV-SKU', price: 300, override: true },
            product: { source_id: 'pv-prod' },
            quantity: 1,
          },
          { source_id: 'pv-existing', product: { price: 999, override: true }, quantity: 1 },
        ],
      },
      redeemables: [{ object: 'voucher', id: 'PV-PCT' }],
    };
    const untouched = fingerprintBut(sqliteOf(server.deps), CUSTOMER_TABLES);
    const validation = await server.request('POST', '/v1/validations', { body });
    assert.equal(validation.status, 200, validation.text);
    assert.equal(validation.body.valid, true);
    assert.equal(fingerprintBut(sqliteOf(server.deps), CUSTOMER_TABLES), untouched);
    assert.equal(
      (await server.request('GET', '/v1/products/pv-existing')).body.price,
      400,
      'the override is previewed, not written',
    );
    const redemption = await server.request('POST', '/v1/redemptions', { body });
    assert.equal(redemption.status, 200, redemption.text);
    const previewed = validation.body.order as Record<string, unknown>;
    const stored = redemption.body.order as Record<string, unknown>;
    assert.equal(previewed.id, undefined, 'a new order is answered without an id');
    assert.deepEqual(figures(previewed), figures(stored));
    assert.deepEqual(masked((previewed.items as unknown[])[1]), {
      object: 'order_item',
      source_id: 'pv-sku',
      related_object: 'sku',
      product_id: 'prod',
      sku_id: 'sku',
      quantity: 1,
      discount_quantity: 0,
      initial_quantity: 1,
      amount: 300,
      discount_amount: 0,
      applied_discount_amount: 0,
      applied_discount_quantity: 0,
      applied_quantity: 0,
      applied_quantity_amount: 0,
      initial_amount: 300,
      price: 300,
      subtotal_amount: 300,
      id: 'ordli',
      product: { id: 'prod', source_id: 'pv-prod', name: 'Preview product', metadata: {}, price: 700 },
      sku: { id: 'sku', source_id: 'pv-sku', sku: 'PV-SKU', metadata: {}, price: 300 },
    });
    assert.equal(
      (await server.request('GET', '/v1/products/pv-existing')).body.price,
      999,
      'the redemption stores the override',
    );
  });

  it('goes on with an item naming an unknown product, kept as given, without writing anything', async () => {
    const before = fingerprintBut(sqliteOf(server.deps), []);
    const res = await server.request('POST', '/v1/validations', {
      body: {
        order: { items: [{ product_id: 'prod_missing', quantity: 1, price: 100 }] },
        redeemables: [{ object: 'voucher', id: 'PV-PCT' }],
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      [
        res.body.valid,
        res.body.order.total_discount_amount,
        res.body.order.items.map((i: Record<string, unknown>) => [i.product_id, i.amount]),
      ],
      [true, 10, [['prod_missing', 100]]],
    );
    assert.equal(fingerprintBut(sqliteOf(server.deps), []), before);
  });
});
