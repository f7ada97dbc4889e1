import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { presentRedemption } from '../../../src/modules/redemptions/redemptions.presenter.js';
import { findRedemptionById } from '../../../src/modules/redemptions/redemptions.repository.js';
import { invalidPayloadError } from '../../support/error-bodies.js';
import { assertRedemptionMatches } from '../../support/redemption-shape.js';
import { errorBody, startTestServer, type TestServer } from '../../support/server.js';
import { fingerprintBut, giftCard, ITEMS, makeVoucher, percentVoucher } from './fixtures.js';
import { sqliteOf } from '../../support/sqlite.js';

/**
 * Every failure code through HTTP (voucherify-facts 2.9). In all-or-nothing mode (the default)
 * one refused redeemable refuses the request: 400 with its failure key, resource_type
 * redemption and the failed redemption's rf_ id; that failed redemption (result FAILURE, status
 * FAILED, null order) and its customer.redemption.failed event are all it writes, beside the
 * customer's failed count: every other table is fingerprinted, the order included.
 */
describe('refused redemptions', () => {
  let server: TestServer;
  let customerId: string;
  let tierInactive: string;
  let tierLater: string;
  const today = new Date().getUTCDay();
  before(async () => {
    server = await startTestServer();
    customerId = (await server.request('POST', '/v1/customers', { body: { source_id: 'refused-buyer' } })).body.id;
    await percentVoucher(server, 'OK-10');
    await percentVoucher(server, 'LATER', { start_date: '2999-01-01T00:00:00Z' });
    await percentVoucher(server, 'OLD', { expiration_date: '2001-01-01T00:00:00Z' });
    await percentVoucher(server, 'OFF', { active: false });
    await percentVoucher(server, 'NOT-TODAY', { validity_day_of_week: [(today + 1) % 7] });
    await percentVoucher(server, 'ONCE', { redemption: { quantity: 1 } });
    await makeVoucher(server, 'ITEMS-ONLY', {
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'PERCENT', percent_off: 10, effect: 'APPLY_TO_ITEMS' },
    });
    await giftCard(server, 'GIFT-100', 100);
    await makeVoucher(server, 'CARD-1', { type: 'LOYALTY_CARD', loyalty_card: { points: 100 } });
    const promotion = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Refused promotion',
        campaign_type: 'PROMOTION',
        promotion: {
          tiers: [
            { name: 'Off', action: { discount: { type: 'AMOUNT', amount_off: 100 } }, active: false },
            { name: 'Later', action: { discount: { type: 'AMOUNT', amount_off: 100 } }, start_date: '2999-01-01' },
          ],
        },
      },
    });
    [tierInactive, tierLater] = promotion.body.promotion.tiers.map((t: { id: string }) => t.id);
    const first = await server.request('POST', '/v1/redemptions', {
      body: { order: { amount: 100 }, redeemables: [{ object: 'voucher', id: 'ONCE' }] },
    });
    assert.equal(first.status, 200, first.text);
  });
  after(() => server.close());

  const withOrder = { customer: { source_id: 'refused-buyer' }, order: { source_id: 'refused-order', items: ITEMS } };
  const cases: Array<{
    key: string;
    message: string;
    body: () => Record<string, unknown>;
    object?: 'voucher' | 'promotion_tier';
  }> = [
    {
      key: 'resource_not_found',
      message: 'Resource not found',
      body: () => ({
        ...withOrder,
        redeemables: [
          { object: 'voucher', id: 'OK-10' },
          { object: 'voucher', id: 'NO-SUCH' },
        ],
      }),
    },
    {
      key: 'voucher_not_active',
      message: 'voucher not active',
      body: () => ({ ...withOrder, redeemables: [{ object: 'voucher', id: 'LATER' }] }),
    },
    {
      key: 'voucher_expired',
      message: 'voucher expired',
      body: () => ({ ...withOrder, redeemables: [{ object: 'voucher', id: 'OLD' }] }),
    },
    {
      key: 'voucher_disabled',
      message: 'voucher is disabled',
      body: () => ({ ...withOrder, redeemables: [{ object: 'voucher', id: 'OFF' }] }),
    },
    {
      key: 'voucher_not_active_now',
      message: 'voucher not active now',
      body: () => ({ ...withOrder, redeemables: [{ object: 'voucher', id: 'NOT-TODAY' }] }),
    },
    {
      key: 'quantity_exceeded',
      message: 'quantity exceeded',
      body: () => ({ ...withOrder, redeemables: [{ object: 'voucher', id: 'ONCE' }] }),
    },
    {
      key: 'missing_order',
      message: 'Missing order',
      body: () => ({ customer: withOrder.customer, redeemables: [{ object: 'voucher', id: 'OK-10' }] }),
    },
    {
      key: 'invalid_order',
      message: 'Invalid order',
      body: () => ({
        customer: withOrder.customer,
        order: { source_id: 'refused-empty', amount: 0 },
        redeemables: [{ object: 'voucher', id: 'OK-10' }],
      }),
    },
    {
      key: 'missing_order_items',
      message: 'Missing order items',
      body: () => ({
        customer: withOrder.customer,
        order: { source_id: 'refused-amount', amount: 500 },
        redeemables: [{ object: 'voucher', id: 'ITEMS-ONLY' }],
      }),
    },
    {
      key: 'gift_amount_exceeded',
      message: 'Gift amount exceeded',
      body: () => ({ ...withOrder, redeemables: [{ object: 'voucher', id: 'GIFT-100', gift: { credits: 101 } }] }),
    },
    {
      key: 'missing_customer',
      message: 'Missing customer',
      body: () => ({
        order: withOrder.order,
        redeemables: [{ object: 'voucher', id: 'CARD-1', reward: { id: 'rew_x' } }],
      }),
    },
    {
      key: 'missing_reward',
      message: 'Missing reward',
      body: () => ({ ...withOrder, redeemables: [{ object: 'voucher', id: 'CARD-1' }] }),
    },
    {
      key: 'promotion_inactive',
      message: 'Inactive Promotion',
      object: 'promotion_tier',
      body: () => ({ ...withOrder, redeemables: [{ object: 'promotion_tier', id: tierInactive }] }),
    },
    {
      key: 'promotion_inactive',
      message: 'Inactive Promotion',
      object: 'promotion_tier',
      body: () => ({ ...withOrder, redeemables: [{ object: 'promotion_tier', id: tierLater }] }),
    },
  ];

  for (const c of cases) {
    it(`refuses with ${c.key}, writing only the failed redemption and its event`, async () => {
      const body = c.body();
      const refused = (body.redeemables as Array<{ object: string; id: string }>).at(-1)!;
      const before = fingerprintBut(sqliteOf(server.deps), ['redemptions', 'redemption_counts', 'customer_events']);
      const events = sqliteOf(server.deps).prepare('SELECT count(*) AS n FROM customer_events').get() as { n: number };
      const res = await server.request('POST', '/v1/redemptions', { body });
      assert.equal(res.status, 400, res.text);
      const id = res.body.resource_id as string;
      assert.match(id, /^rf_/);
      assert.deepEqual(
        res.body,
        errorBody(res, {
          code: 400,
          key: c.key,
          message: c.message,
          details: `${refused.object} ${refused.id}: ${c.message}`,
          resource_id: id,
          resource_type: 'redemption',
        }),
      );
      assert.equal(
        fingerprintBut(sqliteOf(server.deps), ['redemptions', 'redemption_counts', 'customer_events']),
        before,
      );
      const withCustomer = body.customer !== undefined;
      const eventsAfter = sqliteOf(server.deps).prepare('SELECT count(*) AS n FROM customer_events').get() as {
        n: number;
      };
      assert.equal(eventsAfter.n - events.n, withCustomer ? 1 : 0);
      const failed = presentRedemption((await findRedemptionById(server.deps.db, id))!);
      assert.deepEqual(
        {
          result: failed.result,
          status: failed.status,
          order: failed.order,
          failure_code: failed.failure_code,
          failure_message: failed.failure_message,
          customer_id: failed.customer_id,
          type: failed.related_object_type,
        },
        {
          result: 'FAILURE',
          status: 'FAILED',
          order: null,
          failure_code: c.key,
          failure_message: c.message,
          customer_id: withCustomer ? customerId : null,
          type: c.object ?? 'voucher',
        },
      );
      assertRedemptionMatches(failed);
    });
  }

  it("answers the failed redemption whole, and counts it in the customer's summary", async () => {
    const res = await server.request('POST', '/v1/redemptions', {
      body: { ...withOrder, metadata: { try: 1 }, redeemables: [{ object: 'voucher', id: 'OLD' }] },
    });
    const failed = presentRedemption((await findRedemptionById(server.deps.db, res.body.resource_id))!);
    const old = (await server.request('GET', '/v1/vouchers/OLD')).body;
    assert.deepEqual(failed, {
      id: res.body.resource_id,
      object: 'redemption',
      date: failed.date,
      customer_id: customerId,
      tracking_id: 'refused-buyer',
      metadata: { try: 1 },
      redemption: null,
      result: 'FAILURE',
      status: 'FAILED',
      related_redemptions: { rollbacks: [], redemptions: [] },
      failure_code: 'voucher_expired',
      failure_message: 'voucher expired',
      order: null,
      channel: { channel_id: server.serverKey.app_id, channel_type: 'API' },
      customer: { id: customerId, source_id: 'refused-buyer', metadata: {}, object: 'customer' },
      related_object_type: 'voucher',
      related_object_id: old.id,
      voucher: { id: old.id, code: 'OLD', campaign: null, campaign_id: null, object: 'voucher' },
    });
    const entries = (await server.request('GET', '/v1/vouchers/OLD/redemption')).body;
    assert.deepEqual(entries.redemption_entries[0], failed);
    const summary = (await server.request('GET', `/v1/customers/${customerId}`)).body.summary.redemptions;
    assert.equal(summary.total_failed, cases.filter((c) => c.key !== 'missing_customer').length + 1);
  });

  it("leaves out of a voucher's redemptions a failed one whose unknown code was that voucher's id (sql/0029 reads them by related object)", async () => {
    await percentVoucher(server, 'BY-ID');
    const voucher = (await server.request('GET', '/v1/vouchers/BY-ID')).body;
    const redeemed = await server.request('POST', '/v1/redemptions', {
      body: { ...withOrder, redeemables: [{ object: 'voucher', id: 'BY-ID' }] },
    });
    assert.equal(redeemed.status, 200, redeemed.text);
    const byId = await server.request('POST', '/v1/redemptions', {
      body: { ...withOrder, redeemables: [{ object: 'voucher', id: voucher.id }] },
    });
    assert.equal(byId.status, 400, byId.text);
    const failed = presentRedemption((await findRedemptionById(server.deps.db, byId.body.resource_id))!);
    // The failed record names the id it was given as its related object, as the voucher's own records do.
    assert.equal(failed.related_object_id, voucher.id);
    const entries = (await server.request('GET', '/v1/vouchers/BY-ID/redemption')).body;
    assert.deepEqual(
      { total: entries.total, ids: entries.redemption_entries.map((e: { id: string }) => e.id) },
      { total: 1, ids: [redeemed.body.redemptions[0].id] },
    );
  });

  it('refuses more than 30 redeemables, duplicates and a promotion stack among others, writing nothing', async () => {
    const before = fingerprintBut(sqliteOf(server.deps), []);
    const many = Array.from({ length: 31 }, (_, i) => ({ object: 'voucher', id: `C${i}` }));
    const tooMany = await server.request('POST', '/v1/redemptions', { body: { redeemables: many } });
    assert.deepEqual(
      tooMany.body,
      errorBody(tooMany, invalidPayloadError('redeemables must hold at most 30 redeemables')),
    );
    const twice = await server.request('POST', '/v1/redemptions', {
      body: {
        redeemables: [
          { object: 'voucher', id: 'OK-10' },
          { object: 'voucher', id: 'OK-10' },
        ],
      },
    });
    assert.deepEqual(
      twice.body,
      errorBody(twice, {
        code: 400,
        key: 'duplicated_redeemables',
        message: 'Duplicated redeemables detected in one redemption',
        details: 'voucher OK-10 is given more than once',
      }),
    );
    const stack = await server.request('POST', '/v1/validations', {
      body: {
        redeemables: [
          { object: 'promotion_stack', id: 'stack_1' },
          { object: 'voucher', id: 'OK-10' },
        ],
      },
    });
    assert.deepEqual(
      stack.body,
      errorBody(stack, {
        code: 400,
        key: 'invalid_redeemables',
        message: 'Promotion Stack cannot be use with other redeemables',
        details: 'A promotion_stack must be the only redeemable of a request',
      }),
    );
    const none = await server.request('POST', '/v1/redemptions', { body: { redeemables: [] } });
    assert.deepEqual(none.body, errorBody(none, invalidPayloadError('redeemables must hold at least 1 redeemable')));
    assert.equal(fingerprintBut(sqliteOf(server.deps), []), before);
  });
});
