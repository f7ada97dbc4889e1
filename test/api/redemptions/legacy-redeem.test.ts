import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint } from '../../support/db.js';
import { assertRedemptionMatches } from '../../support/redemption-shape.js';
import { clientSideClient, serverSideClient, type ClientSideClient, type ServerSideClient } from '../../support/sdk.js';
import { requestIdOf, startTestServer, type TestServer } from '../../support/server.js';
import { calculatedOrder, fingerprintBut, giftCard, ITEMS, percentVoucher } from './fixtures.js';
import { sqliteOf } from '../../support/sqlite.js';

const DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * The legacy single redemption through the official SDK: `redemptions.redeem(code, body)`
 * (POST /v1/vouchers/{code}/redemption), the client-side `redeem(code, payload)` (POST
 * /client/v1/redeem?code=) and `promotions.tiers.redeem(id, body)` (POST
 * /v1/promotions/tiers/{id}/redemption): the one redemption, written with no parent, with the
 * voucher as it stands after it; a refusal is the stackable 400 with its failed redemption;
 * an unknown code 404; a legacy redemption rolls back as any redemption does.
 */
/** A legacy redemption as these tests read it (the SDK's types know fewer fields than the answer has). */
interface LegacyRedemption {
  id: string;
  date: string;
  amount?: number;
  gift?: unknown;
  customer_id?: string | null;
  tracking_id?: string | null;
  customer: { source_id: string };
  channel: { channel_id: string };
  order: { id: string; total_amount: number };
  voucher: { id: string; gift: { balance: number }; redemption: { redeemed_quantity: number } };
  [field: string]: unknown;
}

/** A promotion tier's redemption as the test reads it: no customer, no voucher. */
interface TierRedemption {
  id: string;
  date: string;
  order: { id: string };
  [field: string]: unknown;
}

describe('legacy redemption (redemptions.redeem, client redeem, promotions.tiers.redeem)', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  let browser: ClientSideClient;
  before(async () => {
    server = await startTestServer();
    sdk = serverSideClient(server);
    browser = clientSideClient(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const getBody = async (path: string) => (await server.request('GET', path)).body;
  const redemptionIds = async () =>
    ((await getBody('/v1/redemptions?limit=100')).redemptions as Array<{ id: string }>).map((r) => r.id).sort();

  it('redeems a discount voucher on a stored order: the redemption whole, with the voucher after it, and no parent', async () => {
    const customerId = (await server.request('POST', '/v1/customers', { body: { source_id: 'lr-ann' } })).body.id;
    const stored = (
      await server.request('POST', '/v1/orders', {
        body: { source_id: 'lr-order', customer: { id: customerId }, items: ITEMS },
      })
    ).body;
    await percentVoucher(server, 'LR-PCT', { redemption: { quantity: 2 } });
    const before = await redemptionIds();
    const answer = (await sdk.redemptions.redeem('LR-PCT', {
      customer: { source_id: 'lr-ann' },
      order: { source_id: 'lr-order' },
      metadata: { till: 4 },
    } as never)) as unknown as LegacyRedemption;
    assert.match(answer.id, /^r_/);
    assert.match(answer.date, DATE);
    const at = answer.date;
    const voucher = await getBody('/v1/vouchers/LR-PCT');
    const map = { [answer.id]: { date: at, related_object_type: 'voucher', related_object_id: voucher.id } };
    const customer = { id: customerId, source_id: 'lr-ann', metadata: {}, object: 'customer' };
    assert.deepEqual(answer, {
      id: answer.id,
      object: 'redemption',
      date: at,
      customer_id: customerId,
      tracking_id: 'lr-ann',
      metadata: { till: 4 },
      redemption: null,
      result: 'SUCCESS',
      status: 'SUCCEEDED',
      related_redemptions: { rollbacks: [], redemptions: [] },
      order: calculatedOrder({ ...stored, updated_at: at }, { amount: 1000, discount: 100, applied: 100 }, map),
      channel: { channel_id: server.serverKey.app_id, channel_type: 'API' },
      customer,
      related_object_type: 'voucher',
      related_object_id: voucher.id,
      voucher,
    });
    assert.deepEqual([voucher.redemption.redeemed_quantity, voucher.updated_at], [1, at]);
    assertRedemptionMatches(answer);
    // GET /v1/redemptions/{id} shows the same record with its voucher snapshot; the list holds it alone, with no parent.
    const { voucher: _full, ...record } = answer;
    assert.deepEqual(await getBody(`/v1/redemptions/${answer.id}`), {
      ...record,
      voucher: { id: voucher.id, code: 'LR-PCT', campaign: null, campaign_id: null, object: 'voucher' },
    });
    assert.deepEqual(await redemptionIds(), [...before, answer.id].sort());
    assert.deepEqual((await getBody(`/v1/orders/${stored.id}`)).redemptions, map);
  });

  it('redeems gift credits with redemptions.redeem and with the client-side redeem(code, payload)', async () => {
    await giftCard(server, 'LR-GIFT', 1000);
    const server_ = (await sdk.redemptions.redeem('LR-GIFT', {
      order: { amount: 600 },
      gift: { credits: 250 },
    })) as unknown as LegacyRedemption;
    const client = (await browser.redeem('LR-GIFT', {
      customer: { source_id: 'lr-bob' },
      order: { amount: 400 },
    } as never)) as unknown as LegacyRedemption;
    assert.deepEqual(
      [server_.amount, server_.gift, server_.customer_id, server_.channel.channel_id],
      [250, { amount: 250 }, null, server.serverKey.app_id],
    );
    assert.deepEqual(
      [client.amount, client.gift, client.tracking_id, client.customer.source_id, client.channel.channel_id],
      [400, { amount: 400 }, 'lr-bob', 'lr-bob', server.clientKey.app_id],
    );
    assert.deepEqual([server_.order.total_amount, client.order.total_amount], [350, 0]);
    assert.deepEqual(
      [server_.voucher.gift.balance, client.voucher.gift.balance],
      [750, 350],
      'each answer shows the card after its own redemption',
    );
    for (const answer of [server_, client]) {
      const { voucher, ...record } = answer;
      const got = await getBody(`/v1/redemptions/${answer.id}`);
      assert.deepEqual(got, {
        ...record,
        voucher: { id: voucher.id, code: 'LR-GIFT', campaign: null, campaign_id: null, object: 'voucher' },
      });
    }
  });

  it('redeems a promotion tier with promotions.tiers.redeem: the redemption with its tier, no parent', async () => {
    const promotion = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Legacy promotion',
        campaign_type: 'PROMOTION',
        promotion: { tiers: [{ name: 'Five off', action: { discount: { type: 'AMOUNT', amount_off: 500 } } }] },
      },
    });
    const [tier] = promotion.body.promotion.tiers;
    const view = await getBody(`/v1/promotions/tiers/${tier.id}`);
    const before = await redemptionIds();
    const answer = (await sdk.promotions.tiers.redeem(tier.id, {
      order: { amount: 2000 },
      metadata: { via: 'tier' },
    })) as unknown as TierRedemption;
    assert.match(answer.id, /^r_/);
    const at = answer.date;
    const map = {
      [answer.id]: {
        date: at,
        related_object_type: 'promotion_tier',
        related_object_id: tier.id,
        related_object_parent_id: promotion.body.id,
      },
    };
    const stored = await getBody(`/v1/orders/${answer.order.id}`);
    assert.deepEqual(answer, {
      id: answer.id,
      object: 'redemption',
      date: at,
      customer_id: null,
      tracking_id: null,
      metadata: { via: 'tier' },
      redemption: null,
      result: 'SUCCESS',
      status: 'SUCCEEDED',
      related_redemptions: { rollbacks: [], redemptions: [] },
      order: calculatedOrder({ ...stored, updated_at: at }, { amount: 2000, discount: 500, applied: 500 }, map, []),
      channel: { channel_id: server.serverKey.app_id, channel_type: 'API' },
      customer: null,
      related_object_type: 'promotion_tier',
      related_object_id: tier.id,
      promotion_tier: view,
    });
    assertRedemptionMatches(answer);
    assert.deepEqual(stored.redemptions, map);
    assert.deepEqual(await getBody(`/v1/redemptions/${answer.id}`), answer);
    assert.deepEqual(await redemptionIds(), [...before, answer.id].sort());
  });

  const refusal = (key: string, message: string, details: string, requestId: string, resourceId: string) => ({
    code: 400,
    key,
    message,
    details,
    request_id: requestId,
    resource_id: resourceId,
    resource_type: 'redemption',
  });

  it('refuses an inactive voucher, an exceeded quantity and exceeded gift credits with the stackable 400 and its failed redemption, changing nothing else', async () => {
    await percentVoucher(server, 'LR-OFF', { active: false });
    await percentVoucher(server, 'LR-ONCE', { redemption: { quantity: 1 } });
    await giftCard(server, 'LR-LOW', 100);
    assert.equal(
      (await server.request('POST', '/v1/vouchers/LR-ONCE/redemption', { body: { order: { amount: 100 } } })).status,
      200,
    );
    const before = fingerprintBut(sqliteOf(server.deps), ['redemptions', 'redemption_counts']);
    const ids = await redemptionIds();
    const cases = [
      [
        '/v1/vouchers/LR-OFF/redemption',
        { order: { amount: 100 } },
        'voucher_disabled',
        'voucher is disabled',
        'voucher LR-OFF: voucher is disabled',
      ],
      [
        '/v1/vouchers/LR-ONCE/redemption',
        { order: { amount: 100 } },
        'quantity_exceeded',
        'quantity exceeded',
        'voucher LR-ONCE: quantity exceeded',
      ],
      [
        '/v1/vouchers/LR-LOW/redemption',
        { order: { amount: 500 }, gift: { credits: 200 } },
        'gift_amount_exceeded',
        'Gift amount exceeded',
        'voucher LR-LOW: Gift amount exceeded',
      ],
    ] as const;
    const failed: string[] = [];
    for (const [path, body, key, message, details] of cases) {
      const res = await server.request('POST', path, { body });
      assert.match(res.body.resource_id ?? '', /^rf_/, res.text);
      assert.deepEqual(
        [res.status, res.body],
        [400, refusal(key, message, details, requestIdOf(res), res.body.resource_id)],
      );
      failed.push(res.body.resource_id);
      const record = await getBody(`/v1/redemptions/${res.body.resource_id}`);
      assert.deepEqual([record.result, record.failure_code, record.redemption], ['FAILURE', key, null]);
    }
    await assert.rejects(
      sdk.redemptions.redeem('LR-ONCE', { order: { amount: 100 } }),
      (error: Record<string, unknown>) => {
        assert.deepEqual([error.code, error.key, error.resource_type], [400, 'quantity_exceeded', 'redemption']);
        failed.push(error.resource_id as string);
        return true;
      },
    );
    assert.equal(fingerprintBut(sqliteOf(server.deps), ['redemptions', 'redemption_counts']), before);
    assert.deepEqual(await redemptionIds(), [...ids, ...failed].sort());
  });

  it('answers an unknown code or tier 404, malformed input and a skipped voucher 400, writing nothing', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const unknown = await server.request('POST', '/v1/vouchers/LR-NONE/redemption', {
      body: { customer: { source_id: 'lr-ann' }, order: { amount: 100 } },
    });
    assert.deepEqual(unknown.body, {
      code: 404,
      key: 'not_found',
      message: 'Resource not found',
      details: 'Cannot find voucher with id LR-NONE',
      resource_id: 'LR-NONE',
      resource_type: 'voucher',
      request_id: requestIdOf(unknown),
    });
    await assert.rejects(
      browser.redeem('LR-NONE', { order: { amount: 100 } } as never),
      (error: Record<string, unknown>) => error.code === 404 && error.details === 'Cannot find voucher with id LR-NONE',
    );
    await assert.rejects(
      sdk.promotions.tiers.redeem('promo_none', { order: { amount: 100 } }),
      (error: Record<string, unknown>) =>
        error.code === 404 && error.details === 'Cannot find promotion_tier with id promo_none',
    );
    const malformed = await server.request('POST', '/v1/vouchers/LR-PCT/redemption', {
      body: { order: 'big', metadata: [] },
    });
    assert.deepEqual(malformed.body, {
      code: 400,
      key: 'invalid_payload',
      message: 'Invalid payload',
      details: 'order must be an object; metadata must be an object',
      request_id: requestIdOf(malformed),
    });
    const noCode = await server.request('POST', '/client/v1/redeem', { auth: 'client', body: {} });
    assert.deepEqual(
      [noCode.status, noCode.body.key, noCode.body.details],
      [400, 'invalid_query_params', 'Query parameter code is required (a voucher code)'],
    );
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
    await percentVoucher(server, 'LR-NOTHING');
    const rules = await server.request('PUT', '/v1/stacking-rules', { body: { redeemables_no_effect_rule: 'SKIP' } });
    assert.equal(rules.status, 200, rules.text);
    const fingerprint = dbFingerprint(sqliteOf(server.deps));
    const skipped = await server.request('POST', '/v1/vouchers/LR-NOTHING/redemption', {
      body: { order: { items: [{ quantity: 1, price: 0 }] } },
    });
    assert.deepEqual(
      [skipped.status, skipped.body.key, skipped.body.details],
      [400, 'invalid_redeemables', 'voucher LR-NOTHING is skipped by the stacking rules: no_effect'],
    );
    assert.equal(
      dbFingerprint(sqliteOf(server.deps)),
      fingerprint,
      'a skipped single redemption writes nothing: no parent without a child',
    );
    assert.equal(
      (await server.request('PUT', '/v1/stacking-rules', { body: { redeemables_no_effect_rule: 'REDEEM_ANYWAY' } }))
        .status,
      200,
    );
  });

  it("rolls a legacy redemption back with redemptions.rollback: the voucher's use and the card's credits come back", async () => {
    await giftCard(server, 'LR-BACK', 1000);
    const redeemed = (await sdk.redemptions.redeem('LR-BACK', {
      order: { amount: 300 },
    })) as unknown as LegacyRedemption;
    assert.deepEqual([redeemed.voucher.gift.balance, redeemed.voucher.redemption.redeemed_quantity], [700, 1]);
    const rollback = (await sdk.redemptions.rollback(
      redeemed.id,
      'changed mind' as never,
    )) as unknown as LegacyRedemption;
    assert.match(rollback.id, /^rr_/);
    assert.deepEqual(
      [
        rollback.object,
        rollback.redemption,
        rollback.reason,
        rollback.result,
        rollback.amount,
        rollback.gift,
        rollback.related_object_type,
      ],
      ['redemption_rollback', redeemed.id, 'changed mind', 'SUCCESS', -300, { amount: -300 }, 'voucher'],
    );
    const card = await getBody('/v1/vouchers/LR-BACK');
    assert.deepEqual([card.gift.balance, card.redemption.redeemed_quantity], [1000, 0]);
    const original = await getBody(`/v1/redemptions/${redeemed.id}`);
    assert.deepEqual(
      [original.status, original.related_redemptions.rollbacks.map((r: { id: string }) => r.id)],
      ['ROLLED_BACK', [rollback.id]],
    );
    const order = await getBody(`/v1/orders/${redeemed.order.id}`);
    assert.deepEqual(
      [order.discount_amount ?? 0, order.redemptions],
      [
        0,
        {
          [redeemed.id]: {
            date: redeemed.date,
            related_object_type: 'voucher',
            related_object_id: redeemed.voucher.id,
            rollback_id: rollback.id,
            rollback_date: rollback.date,
          },
        },
      ],
    );
  });
});
