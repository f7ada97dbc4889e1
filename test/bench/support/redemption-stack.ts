import type { TestServer } from '../../support/server.js';
import { type Created, pick } from './api.js';

/**
 * The `redemptions` benches' data and request, shared by the HTTP bench (redemptions) and the
 * in-process ones (writer-profile, writer-ab): three catalog products, a percent-off voucher
 * whose validation rule makes a 2-product collection applicable, 100 gift cards, 500 customers;
 * each request a stack of the voucher and one gift card (30 credits) on a new 3-item order.
 */
export const CUSTOMERS = 500;
export const GIFT_CARDS = 100;

/** A seeding POST by path (the caller's server and key); answers the created resource. */
type Post = (path: string, body: unknown) => Promise<Created>;

/** Seeds the data; answers the products' ids. */
export async function seedRedemptionStack(post: Post): Promise<string[]> {
  const products: string[] = [];
  for (const [i, price] of [500, 1000, 1500].entries())
    products.push((await post('/v1/products', { source_id: `bench-p${i}`, name: `Product ${i}`, price })).id);
  const collection = await post('/v1/product-collections', {
    type: 'STATIC',
    name: 'Bench picks',
    products: products.slice(0, 2).map((id) => ({ id, object: 'product' })),
  });
  const rule = await post('/v1/validation-rules', {
    name: 'Bench picks only',
    rules: { '1': { name: 'order.amount', conditions: { $more_than: [0] } }, logic: '1' },
    applicable_to: {
      included: [{ object: 'products_collection', id: collection.id }],
      excluded: [],
      included_all: false,
    },
  });
  await post('/v1/vouchers/PCT-BENCH', {
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'PERCENT', percent_off: 10, effect: 'APPLY_TO_ITEMS' },
    validation_rules: [rule.id],
  });
  for (let i = 0; i < GIFT_CARDS; i++)
    await post(`/v1/vouchers/GIFT-BENCH-${i}`, { type: 'GIFT_VOUCHER', gift: { amount: 100_000_000 } });
  for (let i = 0; i < CUSTOMERS; i++) await post('/v1/customers', { source_id: `c-${i}`, name: `Customer ${i}` });
  return products;
}

/** The data seeded through an in-process test server (its server key). */
export const seedThroughApp = (server: TestServer): Promise<string[]> =>
  seedRedemptionStack(async (path, body) => {
    const res = await server.request('POST', path, { body });
    if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
    return res.body;
  });

/** One request's body: a random customer, quantities and gift card. */
export const redemptionStackBody = (products: string[]) => ({
  customer: { source_id: `c-${pick(CUSTOMERS)}` },
  order: { items: products.map((id, i) => ({ product_id: id, quantity: 1 + pick(3), price: 500 * (i + 1) })) },
  redeemables: [
    { object: 'voucher', id: 'PCT-BENCH' },
    { object: 'voucher', id: `GIFT-BENCH-${pick(GIFT_CARDS)}`, gift: { credits: 30 } },
  ],
});
