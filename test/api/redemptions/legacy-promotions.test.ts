import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint } from '../../support/db.js';
import { clientSideClient, serverSideClient, type ClientSideClient, type ServerSideClient } from '../../support/sdk.js';
import { requestIdOf, startTestServer, type TestServer } from '../../support/server.js';
import { sqliteOf } from '../../support/sqlite.js';

/**
 * The legacy promotions validation through the official SDK: `promotions.validate(body)` and
 * `validations.validate({...})` (POST /v1/promotions/validation) and the client-side
 * `validate(params)` without a code (GET /client/v1/promotions/validation): every tier
 * available now, each validated alone against the order; those that apply, by hierarchy.
 */
/** A legacy promotions validation as these tests read it: each applicable tier with the order after it. */
interface PromotionsAnswer {
  promotions: [{ id: string; order: { created_at: string } }, ...Array<{ id: string; order: { created_at: string } }>];
  [field: string]: unknown;
}

describe('legacy promotions validation (promotions.validate, client validate without a code)', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  let browser: ClientSideClient;
  let tiers: Array<{ id: string }>;
  before(async () => {
    server = await startTestServer();
    sdk = serverSideClient(server);
    browser = clientSideClient(server);
    const promotion = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Legacy promotions',
        campaign_type: 'PROMOTION',
        promotion: {
          tiers: [
            {
              name: 'Five off',
              banner: 'Save 5',
              action: { discount: { type: 'AMOUNT', amount_off: 500 } },
              metadata: { shelf: 'a' },
            },
            { name: 'Ten percent', action: { discount: { type: 'PERCENT', percent_off: 10 } } },
            {
              name: 'Items only',
              action: { discount: { type: 'PERCENT', percent_off: 50, effect: 'APPLY_TO_ITEMS' } },
            },
            { name: 'Switched off', action: { discount: { type: 'AMOUNT', amount_off: 900 } } },
          ],
        },
      },
    });
    assert.equal(promotion.status, 200, promotion.text);
    tiers = promotion.body.promotion.tiers;
    const off = await server.request('POST', `/v1/promotions/tiers/${tiers[3]!.id}/disable`);
    assert.equal(off.status, 200, off.text);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  /** A new order of `amount` (no items) as a validation answers it: no id, nothing kept. */
  const orderAfter = (amount: number, discount: number, createdAt: string, customerId: string | null = null) => ({
    source_id: null,
    status: 'CREATED',
    amount,
    initial_amount: amount,
    discount_amount: discount,
    items_discount_amount: 0,
    total_discount_amount: discount,
    total_amount: amount - discount,
    applied_discount_amount: discount,
    items_applied_discount_amount: 0,
    total_applied_discount_amount: discount,
    items: [],
    metadata: {},
    object: 'order',
    created_at: createdAt,
    updated_at: null,
    customer_id: customerId,
    referrer_id: null,
    ...(customerId ? { customer: { id: customerId, object: 'customer' } } : {}),
    redemptions: {},
  });

  const expected = (
    amount: number,
    createdAt: string,
    trackingId: string | null,
    customerId: string | null = null,
  ) => ({
    valid: true,
    promotions: [
      {
        id: tiers[0]!.id,
        object: 'promotion_tier',
        banner: 'Save 5',
        name: 'Five off',
        discount: { type: 'AMOUNT', amount_off: 500 },
        discount_amount: 500,
        applied_discount_amount: 500,
        metadata: { shelf: 'a' },
        order: orderAfter(amount, 500, createdAt, customerId),
        hierarchy: 1,
      },
      {
        id: tiers[1]!.id,
        object: 'promotion_tier',
        name: 'Ten percent',
        discount: { type: 'PERCENT', percent_off: 10 },
        discount_amount: amount / 10,
        applied_discount_amount: amount / 10,
        metadata: {},
        order: orderAfter(amount, amount / 10, createdAt, customerId),
        hierarchy: 2,
      },
    ],
    tracking_id: trackingId,
  });

  it('answers each applicable tier alone with the order after it, by hierarchy, writing nothing', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const answer = (await sdk.promotions.validate({ order: { amount: 2000 } })) as unknown as PromotionsAnswer;
    assert.deepEqual(answer, expected(2000, answer.promotions[0].order.created_at, null));
    const same = (await sdk.validations.validate({ order: { amount: 3000 } })) as unknown as PromotionsAnswer;
    assert.deepEqual(same, expected(3000, same.promotions[0].order.created_at, null));
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before, 'without a customer, a validation writes nothing');
  });

  it('answers the client-side validate(params) without a code from its query, for a known customer', async () => {
    const customerId = (await server.request('POST', '/v1/customers', { body: { source_id: 'lp-ann' } })).body.id;
    const answer = (await browser.validate({
      amount: 1000,
      customer: { source_id: 'lp-ann' },
    })) as unknown as PromotionsAnswer;
    assert.deepEqual(answer, expected(1000, answer.promotions[0].order.created_at, 'lp-ann', customerId));
    const events = sqliteOf(server.deps)
      .prepare('SELECT type FROM customer_events WHERE customer_id = ? ORDER BY seq')
      .all(customerId) as Array<{ type: string }>;
    assert.deepEqual(
      events.map((e) => e.type).filter((t) => t.startsWith('customer.validation')),
      ['customer.validation.succeeded'],
    );
  });

  it('answers valid: false with no promotions when none applies', async () => {
    const answer = await sdk.promotions.validate({ order: { amount: 300 } } as never);
    const { promotions } = answer as unknown as PromotionsAnswer;
    assert.deepEqual(
      [answer.valid, promotions.map((p: { id: string }) => p.id)],
      [true, [tiers[0]!.id, tiers[1]!.id]],
      'an order of 300 still takes both',
    );
    for (const tier of tiers.slice(0, 3))
      assert.equal((await server.request('POST', `/v1/promotions/tiers/${tier.id}/disable`)).status, 200);
    assert.deepEqual(await sdk.promotions.validate({ order: { amount: 300 } }), {
      valid: false,
      promotions: [],
      tracking_id: null,
    });
    for (const tier of tiers.slice(0, 3))
      assert.equal((await server.request('POST', `/v1/promotions/tiers/${tier.id}/enable`)).status, 200);
  });

  it('refuses malformed input with the documented error body, writing nothing', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const body = await server.request('POST', '/v1/promotions/validation', { body: { order: 'big' } });
    assert.deepEqual(body.body, {
      code: 400,
      key: 'invalid_payload',
      message: 'Invalid payload',
      details: 'order must be an object',
      request_id: requestIdOf(body),
    });
    const query = await server.request('GET', '/client/v1/promotions/validation?amount=lots', { auth: 'client' });
    assert.deepEqual(query.body, {
      code: 400,
      key: 'invalid_query_params',
      message: 'Invalid query params',
      details: 'order.amount must be an integer',
      request_id: requestIdOf(query),
    });
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });
});
