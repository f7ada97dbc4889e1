/**
 * A sweep over every route the app registers: wrong body types, bodies that are not objects,
 * bad query parameters and unknown ids. Every answer must be a documented error body (or a
 * success), never a 500, and a refused request must leave the database exactly as it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint } from '../support/db.js';
import { discountCampaign } from '../support/factories.js';
import { assertErrorBody } from '../support/error-bodies.js';
import { registeredRoutes } from '../support/registered-routes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { fingerprintBut } from './redemptions/fixtures.js';
import { sqliteOf } from '../support/sqlite.js';

/** Every field name the API reads, each with a value of the wrong kind. */
const WRONG_TYPES = {
  name: 5,
  source_id: {},
  id: [],
  price: '12',
  attributes: 'color',
  metadata: 'x',
  image_url: 7,
  sku: 1,
  currency: 5,
  email: 7,
  phone: {},
  birthdate: 'yesterday',
  address: 'Main St',
  description: [],
  type: 9,
  filter: 3,
  products: {},
  campaign_type: 1,
  voucher: 'x',
  code: 5,
  code_config: 'x',
  category: [],
  redemption: 3,
  start_date: 'soon',
  expiration_date: 12,
  active: 'yes',
  additional_info: {},
  vouchers_count: 'many',
  gift: 1,
  discount: 'half',
  loyalty_card: 2,
  validity_day_of_week: [9],
  grant_type: 5,
  scope: [],
  access_token: 1,
  points: 'x',
  status: 7,
  items: 'x',
  amount: 'x',
  discount_amount: [],
  initial_amount: true,
  customer: 'x',
  referrer: 5,
  referrer_id: {},
  created_at: 5,
};

const BODIES: Array<{ label: string; raw: string }> = [
  { label: 'wrong types', raw: JSON.stringify(WRONG_TYPES) },
  { label: 'an array', raw: JSON.stringify([WRONG_TYPES, 1, null]) },
  {
    label: 'nested wrong types',
    raw: JSON.stringify({
      metadata: { a: { b: [1, { c: null }] } },
      address: { city: 5 },
      filter: { junction: 'xor', price: { conditions: { $nope: 1 } } },
      products: [{ id: 5 }],
    }),
  },
  { label: 'JSON null', raw: 'null' },
  { label: 'a huge number', raw: JSON.stringify({ price: 1e308, vouchers_count: 1e308, points: -1e308 }) },
];

const BAD_QUERY =
  '?limit=abc&page=-1&order=zzz&start_date=x&end_date=y&created_at[before]=nope&updated_at[after]=no&vouchers_count=0&campaign_type=X&category=Y&type=Z&starting_after_id=nope&starting_after=never';

describe('every route refuses bad input with an error body and writes nothing', () => {
  let server: TestServer;
  const real: Record<string, string> = {};

  before(async () => {
    server = await startTestServer();
    const product = await server.request('POST', '/v1/products', {
      body: { name: 'P', source_id: 'p-1', attributes: ['color'] },
    });
    const sku = await server.request('POST', '/v1/products/p-1/skus', {
      body: { sku: 'S', source_id: 's-1', attributes: { color: 'red' } },
    });
    const collection = await server.request('POST', '/v1/product-collections', {
      body: { type: 'STATIC', name: 'C', products: [{ id: product.body.id, object: 'product' }] },
    });
    const customer = await server.request('POST', '/v1/customers', { body: { source_id: 'c-1', name: 'C' } });
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Camp') });
    await server.request('POST', '/v1/campaigns/Camp/vouchers', { body: { code: 'CODE-1' } });
    const job = await server.request('POST', '/v1/campaigns/Camp/import', { body: [{ code: 'CODE-2' }] });
    const order = await server.request('POST', '/v1/orders', {
      body: {
        source_id: 'o-1',
        status: 'PAID',
        customer: { source_id: 'c-1' },
        items: [{ product_id: product.body.id, quantity: 1 }],
      },
    });
    Object.assign(real, {
      productId: product.body.id,
      skuId: sku.body.id,
      collectionId: collection.body.id,
      ref: customer.body.id,
      campaignId: 'Camp',
      code: 'CODE-1',
      id: job.body.async_action_id,
      orderId: order.body.id,
    });
    assert.ok(Object.values(real).every(Boolean), JSON.stringify(real));
  });
  after(() => server.close());

  const fill = (path: string, ids: 'real' | 'unknown') =>
    path.replace(/:(\w+)/g, (_, name: string) => (ids === 'real' ? (real[name] as string) : `no-such-${name}`));

  for (const route of registeredRoutes()) {
    it(`${route.method} ${route.path}`, async () => {
      const variants = route.path.includes(':') ? (['unknown', 'real'] as const) : (['real'] as const);
      for (const ids of variants) {
        // Deleting the seeded resources would change what the next routes see.
        if (route.method === 'DELETE' && ids === 'real') continue;
        const path = fill(route.path, ids);
        const attempts: Array<{ label: string; raw?: string; query?: string }> = [
          { label: 'bad query', query: BAD_QUERY },
        ];
        if (route.method === 'POST' || route.method === 'PUT') attempts.push(...BODIES);
        // A refused redemption records its failure (a `rf_` record, docs/api.md "Redemptions and
        // validations"): on the redeeming routes, that record is the one change allowed.
        const redeems = /redemption|redeem/.test(route.path) && route.method === 'POST';
        for (const attempt of attempts) {
          const before = dbFingerprint(sqliteOf(server.deps));
          const beforeRecords = redeems
            ? fingerprintBut(sqliteOf(server.deps), ['redemptions', 'redemption_counts'])
            : null;
          const res = await server.request(route.method, `${path}${attempt.query ?? ''}`, {
            raw: attempt.raw,
            headers: attempt.raw === undefined ? {} : { 'Content-Type': 'application/json' },
          });
          const what = `${route.method} ${path} with ${attempt.label}`;
          assertErrorBody(res, what);
          const failureRecorded =
            beforeRecords !== null &&
            res.status === 400 &&
            res.body.resource_type === 'redemption' &&
            /^rf_/.test(res.body.resource_id);
          if (failureRecorded)
            assert.equal(
              fingerprintBut(sqliteOf(server.deps), ['redemptions', 'redemption_counts']),
              beforeRecords,
              `${what}: a refusal changed more than its failed redemption`,
            );
          else if (res.status >= 400)
            assert.equal(
              dbFingerprint(sqliteOf(server.deps)),
              before,
              `${what}: a refused request changed the database`,
            );
        }
      }
    });
  }

  it('logged no internal error', () => assert.deepEqual(server.logged, []));
});
