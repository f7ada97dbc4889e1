import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertMatchesReference, withoutNulls } from '../../support/openapi.js';
import { assertRedemptionMatches, redeemAnswerForReference } from '../../support/redemption-shape.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { calculatedOrder, giftCard, ITEMS, percentVoucher } from './fixtures.js';

const DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * POST /v1/redemptions and /client/v1/redemptions: one percent-off voucher and one gift card
 * on a 3-item order, the whole answer, and what the one transaction wrote (the order, the
 * voucher's counter, the card's credits, the customer's summary, the events).
 */
describe('stackable redemptions: a discount voucher plus a gift card', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const redeem = (
    path: string,
    codes: [string, string],
    extra: Record<string, unknown> = {},
    auth: 'server' | 'client' = 'server',
  ) =>
    server.request('POST', path, {
      auth,
      body: {
        customer: { source_id: `buyer-${codes[0]}` },
        order: { items: ITEMS },
        redeemables: [
          { object: 'voucher', id: codes[0] },
          { object: 'voucher', id: codes[1], gift: { credits: 300 } },
        ],
        ...extra,
      },
    });

  for (const [path, auth, reference] of [
    ['/v1/redemptions', 'server', '/v1/redemptions'],
    ['/client/v1/redemptions', 'client', '/client/v1/redemptions'],
  ] as const) {
    it(`answers ${path} with the children, the parent and the order, and writes them in one go`, async () => {
      const tag = auth.toUpperCase();
      const pct = await percentVoucher(server, `PCT-${tag}`);
      const gift = await giftCard(server, `GIFT-${tag}`, 1000);
      const res = await redeem(path, [`PCT-${tag}`, `GIFT-${tag}`], { metadata: { till: 3 } }, auth);
      assert.equal(res.status, 200, res.text);
      const body = res.body;
      const parentId = body.parent_redemption.id;
      const [first, second] = body.redemptions;
      assert.match(parentId, /^r_/);
      assert.match(body.parent_redemption.date, DATE);
      const at = body.parent_redemption.date;
      const stored = (await server.request('GET', `/v1/orders/${body.order.id}`)).body;
      const customer = { id: stored.customer_id, source_id: `buyer-PCT-${tag}`, metadata: {}, object: 'customer' };
      const map = {
        [parentId]: {
          date: at,
          related_object_type: 'redemption',
          related_object_id: parentId,
          stacked: [first.id, second.id],
        },
      };
      const common = {
        object: 'redemption',
        date: at,
        customer_id: customer.id,
        tracking_id: customer.source_id,
        metadata: { till: 3 },
        result: 'SUCCESS',
        status: 'SUCCEEDED',
        channel: {
          channel_id: auth === 'server' ? server.serverKey.app_id : server.clientKey.app_id,
          channel_type: 'API',
        },
        customer,
      };
      const voucherOf = (v: Record<string, unknown>) => ({
        id: v.id,
        code: v.code,
        campaign: null,
        campaign_id: null,
        object: 'voucher',
      });
      const orderAt = (discount: number, applied: number) =>
        calculatedOrder({ ...stored, updated_at: at }, { amount: 1000, discount, applied }, map);
      assert.deepEqual(body, {
        redemptions: [
          {
            id: first.id,
            ...common,
            redemption: parentId,
            related_redemptions: { rollbacks: [], redemptions: [] },
            order: orderAt(100, 100),
            related_object_type: 'voucher',
            related_object_id: pct.id,
            voucher: voucherOf(pct),
          },
          {
            id: second.id,
            ...common,
            amount: 300,
            redemption: parentId,
            related_redemptions: { rollbacks: [], redemptions: [] },
            order: orderAt(400, 300),
            related_object_type: 'voucher',
            related_object_id: gift.id,
            voucher: voucherOf(gift),
            gift: { amount: 300 },
          },
        ],
        parent_redemption: {
          id: parentId,
          ...common,
          amount: 300,
          redemption: null,
          related_redemptions: {
            rollbacks: [],
            redemptions: [
              { id: first.id, date: at },
              { id: second.id, date: at },
            ],
          },
          order: orderAt(400, 400),
          related_object_type: 'redemption',
          related_object_id: parentId,
        },
        order: orderAt(400, 400),
      });
      assertMatchesReference('POST', reference, 200, redeemAnswerForReference(body));
      for (const redemption of [...body.redemptions, body.parent_redemption]) assertRedemptionMatches(redemption);

      // The stored order carries the discounts and the redemptions map.
      assert.deepEqual(
        {
          discount_amount: stored.discount_amount,
          total_amount: stored.total_amount,
          redemptions: stored.redemptions,
          updated_at: stored.updated_at,
        },
        { discount_amount: 400, total_amount: 600, redemptions: map, updated_at: at },
      );
      const pctAfter = (await server.request('GET', `/v1/vouchers/PCT-${tag}`)).body;
      const giftAfter = (await server.request('GET', `/v1/vouchers/GIFT-${tag}`)).body;
      assert.deepEqual(
        [pctAfter.redemption.redeemed_quantity, giftAfter.redemption.redeemed_quantity, giftAfter.gift.balance],
        [1, 1, 700],
      );
      const summary = (await server.request('GET', `/v1/customers/${customer.id}`)).body.summary.redemptions;
      assert.deepEqual(
        {
          total_redeemed: summary.total_redeemed,
          total_succeeded: summary.total_succeeded,
          total_failed: summary.total_failed,
          gift: summary.gift,
        },
        { total_redeemed: 2, total_succeeded: 2, total_failed: 0, gift: { redeemed_amount: 300, amount_to_go: 0 } },
      );
      const activity = (await server.request('GET', `/v1/customers/${customer.id}/activity?limit=100`)).body;
      const types = activity.data.map((event: { type: string }) => event.type).sort();
      assert.deepEqual(types, [
        'customer.created',
        'customer.order.created',
        'customer.redemption.succeeded',
        'customer.redemption.succeeded',
      ]);

      // The voucher's redemptions: GET /v1/vouchers/{code}/redemption.
      const entries = await server.request('GET', `/v1/vouchers/PCT-${tag}/redemption`);
      assert.deepEqual(entries.body, {
        quantity: null,
        redeemed_quantity: 1,
        object: 'list',
        url: `/v1/vouchers/PCT-${tag}/redemptions?page=1&limit=10`,
        data_ref: 'redemption_entries',
        total: 1,
        redemption_entries: [body.redemptions[0]],
      });
      const { redemption_entries: listed, ...list } = entries.body;
      assertMatchesReference('GET', '/v1/vouchers/{code}/redemption', 200, {
        ...withoutNulls(list),
        quantity: null,
        redemption_entries: [],
      });
      for (const entry of listed as object[]) assertRedemptionMatches(entry);

      // Byte for byte (key order too), each record answered is what GET presents from the stored
      // row, and what the customer's redemption events hold.
      for (const record of [...body.redemptions, body.parent_redemption]) {
        assert.equal((await server.request('GET', `/v1/redemptions/${record.id}`)).text, JSON.stringify(record));
      }
      const eventRecords = activity.data
        .filter((event: { type: string }) => event.type === 'customer.redemption.succeeded')
        .map((event: { data: { data: { redemption: { id: string } } } }) => event.data.data.redemption)
        .sort((a: { id: string }, b: { id: string }) => (a.id === first.id ? -1 : b.id === first.id ? 1 : 0));
      assert.equal(JSON.stringify(eventRecords), JSON.stringify(body.redemptions));
    });
  }

  // The engine takes a percentage of what earlier discounts left: 10% of 900 is 90.
  it("uses the stored order of a source_id again: the second redemption stacks on the first one's discount", async () => {
    await percentVoucher(server, 'AGAIN-1');
    await percentVoucher(server, 'AGAIN-2');
    const order = { source_id: 'again-order', items: ITEMS };
    const first = await server.request('POST', '/v1/redemptions', {
      body: { order, redeemables: [{ object: 'voucher', id: 'AGAIN-1' }] },
    });
    const second = await server.request('POST', '/v1/redemptions', {
      body: { order: { source_id: 'again-order' }, redeemables: [{ object: 'voucher', id: 'AGAIN-2' }] },
    });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.order.id, first.body.order.id);
    const figures = (o: Record<string, number>) => [o.discount_amount, o.applied_discount_amount, o.total_amount];
    assert.deepEqual(
      [figures(first.body.order), figures(second.body.order)],
      [
        [100, 100, 900],
        [190, 90, 810],
      ],
    );
    assert.deepEqual(Object.keys(second.body.order.redemptions), [
      first.body.parent_redemption.id,
      second.body.parent_redemption.id,
    ]);
  });

  it('redeems a promotion tier: the child names the tier, with the tier as the campaigns module answers it', async () => {
    const promotion = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Tier promotion',
        campaign_type: 'PROMOTION',
        promotion: { tiers: [{ name: 'Five off', action: { discount: { type: 'AMOUNT', amount_off: 500 } } }] },
      },
    });
    const tier = promotion.body.promotion.tiers[0];
    const res = await server.request('POST', '/v1/redemptions', {
      body: { order: { amount: 2000 }, redeemables: [{ object: 'promotion_tier', id: tier.id }] },
    });
    assert.equal(res.status, 200, res.text);
    const [child] = res.body.redemptions;
    assert.deepEqual(
      [
        child.related_object_type,
        child.related_object_id,
        child.promotion_tier,
        child.voucher,
        child.order.total_amount,
      ],
      ['promotion_tier', tier.id, tier, undefined, 1500],
    );
    assertRedemptionMatches(child);
  });

  it('skips the redeemables beyond the applicable limit (5) and answers them as SKIPPED', async () => {
    const codes = ['LIM-1', 'LIM-2', 'LIM-3', 'LIM-4', 'LIM-5', 'LIM-6'];
    for (const code of codes) await percentVoucher(server, code);
    const res = await server.request('POST', '/v1/redemptions', {
      body: { order: { amount: 1000 }, redeemables: codes.map((id) => ({ object: 'voucher', id })) },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.redemptions.length, 5);
    assert.deepEqual(res.body.skipped_redeemables, [
      {
        status: 'SKIPPED',
        id: 'LIM-6',
        object: 'voucher',
        result: {
          details: { key: 'applicable_redeemables_limit_exceeded', message: 'Applicable redeemables limit exceeded' },
        },
      },
    ]);
    assert.equal((await server.request('GET', '/v1/vouchers/LIM-6')).body.redemption.redeemed_quantity, 0);
  });
});
