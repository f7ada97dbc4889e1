import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertCustomerObject, eventSchemaName } from '../modules/customers/reference.js';
import { assertCardMatchesLedger } from '../modules/ledgers/recompute.js';
import { dbFingerprint } from '../support/db.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import { discountCampaign } from '../support/factories.js';
import { assertMatchesReference, assertMatchesSchema, withoutNulls } from '../support/openapi.js';
import { errorBody, notFoundBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { voucherBody } from '../support/voucher-shape.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2025-03-01T10:00:00.000Z';
const LATER = '2025-03-01T11:00:00.000Z';

/** A loyalty card as the member endpoints answer it. */
function cardShape(
  card: { id: string; code: string; campaign: string; campaign_id: string },
  fields: Record<string, unknown> = {},
) {
  const path = `/v1/vouchers/${encodeURIComponent(card.code)}`;
  return voucherBody(
    { id: card.id, code: card.code, created_at: NOW },
    {
      campaign: card.campaign,
      campaign_id: card.campaign_id,
      type: 'LOYALTY_CARD',
      loyalty_card: {
        points: 0,
        balance: 0,
        pending_points: 0,
        expired_points: 0,
        subtracted_points: 0,
      },
      updated_at: NOW,
      publish: { object: 'list', count: 1, url: `${path}/publications?page=1&limit=10` },
      ...fields,
    },
  );
}

describe('loyalty members', () => {
  let server: TestServer;
  const clock = fixedClock(NOW);
  let program: { id: string; name: string };
  let rich: { id: string; name: string };
  before(async () => {
    server = await startTestServer({ clock });
    program = (
      await server.request('POST', '/v1/loyalties', {
        body: { name: 'Stars', voucher: { loyalty_card: { points: 0 }, code_config: { pattern: 'S-######' } } },
      })
    ).body;
    rich = (
      await server.request('POST', '/v1/loyalties', {
        body: { name: 'Rich', voucher: { loyalty_card: { points: 100 } } },
      })
    ).body;
  });
  after(() => server.close());

  it('adds a new customer: a new card of the program with its holder, the customer upserted, a publication event', async () => {
    const res = await server.request('POST', `/v1/loyalties/${program.id}/members`, {
      body: {
        customer: { source_id: 'ann', name: 'Ann', email: 'ann@example.com' },
        metadata: { via: 'shop' },
        channel: 'POS',
        source_id: 'pub-1',
      },
    });
    assert.equal(res.status, 200);
    assert.match(res.body.code, /^S-[0-9A-Za-z]{6}$/);
    const customer = (await server.request('GET', '/v1/customers/ann')).body;
    const card = { id: res.body.id, code: res.body.code, campaign: 'Stars', campaign_id: program.id };
    assert.deepEqual(res.body, cardShape(card, { holder_id: customer.id }));
    assertMatchesReference('POST', '/v1/loyalties/{campaignId}/members', 200, withoutNulls(res.body));
    assert.deepEqual(customer.loyalty, {
      points: 0,
      referred_customers: 0,
      campaigns: { Stars: { points: 0, referred_customers: 0 } },
    });
    assertCustomerObject(customer);

    const feed = (await server.request('GET', '/v1/customers/ann/activity?order=created_at')).body.data as Array<{
      type: string;
      data: { data: { publication: { id: string } } };
    }>;
    assert.deepEqual(
      feed.map((e) => e.type),
      ['customer.created', 'customer.publication.succeeded'],
    );
    const event = feed[1]?.data.data as { publication: { id: string } };
    assertMatchesSchema(eventSchemaName('customer.publication.succeeded'), event);
    assert.match(event.publication.id, /^pub_[0-9A-Za-z]{16}$/);
    assert.deepEqual(event, {
      customer: {
        id: customer.id,
        name: 'Ann',
        email: 'ann@example.com',
        source_id: 'ann',
        metadata: {},
        object: 'customer',
      },
      campaign: {
        id: program.id,
        name: 'Stars',
        campaign_type: 'LOYALTY_PROGRAM',
        type: 'STATIC',
        is_referral_code: false,
        voucher: {
          type: 'LOYALTY_CARD',
          loyalty_card: { points: 0 },
          code_config: {
            length: 6,
            charset: '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
            pattern: 'S-######',
          },
          redemption: { quantity: null, redeemed_quantity: 0 },
          is_referral_code: false,
        },
        auto_join: false,
        join_once: true,
        active: true,
        categories: [],
        metadata: {},
        created_at: NOW,
        object: 'campaign',
      },
      publication: {
        id: event.publication.id,
        object: 'publication',
        created_at: NOW,
        customer_id: customer.id,
        tracking_id: 'ann',
        metadata: { via: 'shop' },
        channel: 'POS',
        source_id: 'pub-1',
        customer,
        vouchers: [card.code],
        vouchers_id: [card.id],
        result: 'SUCCESS',
        voucher: {
          code: card.code,
          object: 'voucher',
          campaign: 'Stars',
          loyalty_card: res.body.loyalty_card,
          is_referral_code: false,
        },
      },
    });
  });

  it('gives a customer who holds a card of the program that card again, changing nothing', async () => {
    const first = await server.request('GET', '/v1/loyalties/Stars/members?customer=ann');
    const before = dbFingerprint(sqliteOf(server.deps));
    clock.set(LATER);
    const again = await server.request('POST', '/v1/loyalties/Stars/members', {
      body: { customer: { source_id: 'ann', name: 'Ann' } },
    });
    clock.set(NOW);
    assert.deepEqual({ status: again.status, body: again.body }, { status: 200, body: first.body.vouchers[0] });
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it("claims the program's oldest free card before making one, and its points become the customer's", async () => {
    const free1 = (await server.request('POST', `/v1/campaigns/${rich.id}/vouchers`, { body: { code: 'FREE-1' } }))
      .body;
    await server.request('POST', `/v1/campaigns/${rich.id}/vouchers`, { body: { code: 'FREE-2' } });
    clock.set(LATER);
    const res = await server.request('POST', '/v1/loyalties/Rich/members', {
      body: { customer: { source_id: 'bob' } },
    });
    clock.set(NOW);
    const bob = (await server.request('GET', '/v1/customers/bob')).body;
    const card = { id: free1.id, code: 'FREE-1', campaign: 'Rich', campaign_id: rich.id };
    const points = {
      points: 100,
      balance: 100,
      pending_points: 0,
      expired_points: 0,
      subtracted_points: 0,
    };
    assert.deepEqual(res.body, cardShape(card, { holder_id: bob.id, loyalty_card: points, updated_at: LATER }));
    assert.deepEqual(
      [bob.loyalty, bob.summary.redemptions.loyalty_card],
      [
        { points: 100, referred_customers: 0, campaigns: { Rich: { points: 100, referred_customers: 0 } } },
        { redeemed_points: 0, points_to_go: 100 },
      ],
    );
    assertCardMatchesLedger(sqliteOf(server.deps), free1.id);
    // Later points of the card are the holder's: the ledgers carry them to the customer.
    const added = await server.request('POST', '/v1/loyalties/members/FREE-1/balance', { body: { points: 25 } });
    assert.equal(added.status, 200);
    const after = (await server.request('GET', '/v1/customers/bob')).body;
    assert.deepEqual(after.loyalty, {
      points: 125,
      referred_customers: 0,
      campaigns: { Rich: { points: 125, referred_customers: 0 } },
    });
    assertCardMatchesLedger(sqliteOf(server.deps), free1.id);
  });

  it('gives the card the body names when it is free, and refuses one held by another customer, of another program or unknown', async () => {
    const named = await server.request('POST', '/v1/loyalties/Rich/members', {
      body: { voucher: 'FREE-2', customer: { source_id: 'cyd' } },
    });
    const cyd = (await server.request('GET', '/v1/customers/cyd')).body;
    assert.deepEqual(
      [named.status, named.body.code, named.body.holder_id, named.body.publish.count],
      [200, 'FREE-2', cyd.id, 1],
    );
    const again = await server.request('POST', '/v1/loyalties/Rich/members', {
      body: { voucher: 'FREE-2', customer: { id: cyd.id } },
    });
    assert.deepEqual(again.body, named.body);

    await assertRefused(
      server,
      () =>
        server.request('POST', '/v1/loyalties/Rich/members', {
          body: { voucher: 'FREE-2', customer: { source_id: 'ann' } },
        }),
      (res) =>
        errorBody(res, {
          code: 409,
          key: 'holder_assignement_duplication',
          message: 'Holder assignment duplication',
          details: 'Loyalty card FREE-2 is already held by another customer',
          resource_id: 'FREE-2',
          resource_type: 'voucher',
        }),
    );
    await assertRefused(
      server,
      () =>
        server.request('POST', '/v1/loyalties/Stars/members', {
          body: { voucher: 'FREE-2', customer: { source_id: 'cyd' } },
        }),
      (res) =>
        errorBody(res, {
          code: 400,
          key: 'invalid_voucher',
          message: 'Invalid voucher',
          details: `Voucher FREE-2 is not a loyalty card of program ${program.id}`,
        }),
    );
    const coupon = (
      await server.request('POST', '/v1/campaigns', { body: discountCampaign('Coupons', { vouchers_count: 1 }) })
    ).body;
    const couponCode = (await server.request('GET', `/v1/vouchers?campaign_id=${coupon.id}`)).body.vouchers[0]
      .code as string;
    for (const code of ['NO-SUCH-CARD', couponCode]) {
      await assertRefused(
        server,
        () =>
          server.request('POST', '/v1/loyalties/Stars/members', {
            body: { voucher: code, customer: { source_id: 'dee' } },
          }),
        (res) => notFoundBody(res, 'voucher', code),
      );
    }
  });

  it('refuses an unknown program, a program that is not loyalty, a missing or malformed customer, writing nothing', async () => {
    for (const ref of ['Nowhere', 'Coupons']) {
      await assertRefused(
        server,
        () => server.request('POST', `/v1/loyalties/${ref}/members`, { body: { customer: { source_id: 'eve' } } }),
        (res) => notFoundBody(res, 'campaign', ref),
      );
    }
    await assertRefused(
      server,
      () => server.request('POST', '/v1/loyalties/Stars/members', { body: { voucher: 'FREE-2' } }),
      (res) =>
        errorBody(res, {
          code: 400,
          key: 'invalid_payload',
          message: 'Invalid payload',
          details: 'customer is a required field',
        }),
    );
    await assertRefused(
      server,
      () => server.request('POST', '/v1/loyalties/Stars/members', { body: { customer: 7, metadata: [1] } }),
      (res) =>
        errorBody(res, {
          code: 400,
          key: 'invalid_payload',
          message: 'Invalid payload',
          details: 'customer must be an object or a string; metadata must be an object',
        }),
    );
    await assertRefused(
      server,
      () => server.request('POST', '/v1/loyalties/Stars/members', { body: { customer: { id: 'cust_nobody' } } }),
      (res) => notFoundBody(res, 'customer', 'cust_nobody'),
    );
  });

  it('GET /v1/loyalties/members/{code} and /v1/loyalties/{program}/members/{code} answer the card; another program is 404', async () => {
    const viaCode = await server.request('GET', '/v1/loyalties/members/FREE-1');
    assert.equal(viaCode.status, 200);
    assertMatchesReference('GET', '/v1/loyalties/members/{memberId}', 200, withoutNulls(viaCode.body));
    assert.deepEqual(viaCode.body, (await server.request('GET', '/v1/vouchers/FREE-1')).body);
    const viaProgram = await server.request('GET', `/v1/loyalties/${rich.id}/members/FREE-1`);
    assert.deepEqual([viaProgram.status, viaProgram.body], [200, viaCode.body]);
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/members/{memberId}', 200, withoutNulls(viaProgram.body));
    const other = await server.request('GET', '/v1/loyalties/Stars/members/FREE-1');
    assert.deepEqual(other.body, notFoundBody(other, 'voucher', 'FREE-1'));
    const unknown = await server.request('GET', '/v1/loyalties/Nowhere/members/FREE-1');
    assert.deepEqual(unknown.body, notFoundBody(unknown, 'campaign', 'Nowhere'));
  });
});
