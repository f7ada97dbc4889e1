import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { programExpiryDate } from '../../src/engine/loyalty/points-expiry.js';
import { internalActor } from '../../src/lib/actor.js';
import { fixedClock } from '../../src/lib/clock.js';
import { IMPORT_UPSERT, upsertOrder } from '../../src/modules/orders/orders.service.js';
import { sweepRegistry } from '../../src/root/sweep-registry.js';
import { startSweeps } from '../../src/jobs/sweeps.js';
import { activateDuePendingPoints } from '../../src/modules/loyalty/pending-points/pending-points.service.js';
import { dbFingerprint } from '../support/db.js';
import { assertMatchesReference } from '../support/openapi.js';
import {
  errorBody,
  notFoundBody,
  requestIdOf,
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const T0 = '2026-03-02T10:00:00.000Z'; // a Monday
const DAY = 86_400_000;

/**
 * Earning on paid orders and pending points, end to end: the real API, the real ledger.
 * Alice holds a card of Club and of Stars, Bob one of Club, Carol none.
 */
describe('earning rules on paid orders, and pending points', () => {
  let server: TestServer;
  const clock = fixedClock(T0);
  const cards: Record<string, { id: string; code: string }> = {};
  let clubRules: Array<{ id: string }>;
  let starsRule: { id: string; source: { banner: string } };
  let skuId: string;

  const post = (path: string, body?: unknown) => server.request('POST', path, { body });
  const get = (path: string) => server.request('GET', path);
  const loyaltyCard = async (who: string) => (await get(`/v1/loyalties/members/${cards[who]!.code}`)).body.loyalty_card;
  const card = (fields: Partial<Record<string, number | string | null>>) => ({
    points: 0,
    balance: 0,
    pending_points: 0,
    expired_points: 0,
    subtracted_points: 0,
    ...fields,
  });

  before(async () => {
    server = await startTestServer({ clock });
    for (const name of ['Club', 'Stars', 'Brief'])
      await post('/v1/loyalties', { name, voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    for (const [who, program] of [
      ['alice', 'Club'],
      ['aliceStars', 'Stars'],
      ['bob', 'Club'],
      ['bobBrief', 'Brief'],
    ] as const) {
      const member = await post(`/v1/loyalties/${program}/members`, {
        customer: { source_id: who.replace(/(Stars|Brief)$/, '') },
      });
      assert.equal(member.status, 200, JSON.stringify(member.body));
      cards[who] = { id: member.body.id, code: member.body.code };
    }
    await post('/v1/customers', { source_id: 'carol' });
    const product = await post('/v1/products', { source_id: 'shoe', name: 'Shoe', price: 1000 });
    skuId = (await post(`/v1/products/${product.body.id}/skus`, { source_id: 'shoe-42', sku: 'Shoe 42', price: 1000 }))
      .body.id;
    const club = await post('/v1/loyalties/Club/earning-rules', [
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 10 }, source: { banner: 'Ten per order' } },
      {
        event: 'order.paid',
        loyalty: {
          type: 'PROPORTIONAL',
          calculation_type: 'ORDER_AMOUNT',
          order: { amount: { every: 1000, points: 1 } },
        },
      },
      {
        event: 'order.paid',
        loyalty: {
          type: 'PROPORTIONAL',
          calculation_type: 'ORDER_ITEMS_QUANTITY',
          order_items: { quantity: { every: 1, points: 5, object: 'sku', id: skuId } },
        },
      },
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 1000 }, active: false },
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 2000 }, start_date: '2026-04-01T00:00:00.000Z' },
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 3000 }, validity_day_of_week: [0, 6] },
      {
        event: 'customer.loyalty.tier.joined',
        loyalty_tier: { id: 'ltr_any' },
        loyalty: { type: 'FIXED', points: 4000 },
      },
    ]);
    assert.equal(club.status, 200, JSON.stringify(club.body));
    clubRules = club.body;
    const stars = await post('/v1/loyalties/Stars/earning-rules', [
      {
        event: 'order.paid',
        loyalty: { type: 'FIXED', points: 7 },
        source: { banner: 'Seven, in three days' },
        pending_points: { period_type: 'DAY', period_value: 3 },
      },
    ]);
    starsRule = stars.body[0];
    await post('/v1/loyalties/Brief/earning-rules', [
      {
        event: 'order.paid',
        loyalty: { type: 'FIXED', points: 3 },
        expiration_rules: { period_type: 'MONTH', period_value: 1 },
      },
    ]);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const order = (sourceId: string, customer: string | null, status: string, extra: Record<string, unknown> = {}) =>
    post('/v1/orders', {
      source_id: sourceId,
      status,
      ...(customer ? { customer: { source_id: customer } } : {}),
      items: [
        { sku_id: skuId, quantity: 2, price: 1000 },
        { quantity: 1, price: 10345 },
      ],
      ...extra,
    });

  it("a paid order earns every due rule on each of the payer's cards: Club at once, Stars pending", async () => {
    const res = await order('o-1', 'alice', 'PAID');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // 12,345 in all: 10 fixed + 12 (1 per 10.00) + 10 (5 per unit of the SKU, 2 units); the
    // inactive, not-yet-started, weekend-only and tier rules give nothing.
    assert.deepEqual(await loyaltyCard('alice'), card({ points: 32, balance: 32 }));
    assert.deepEqual(await loyaltyCard('aliceStars'), card({ pending_points: 7 }));
    assert.deepEqual(await loyaltyCard('bob'), card({}), 'another member of Club earns nothing');
    const alice = await get('/v1/customers/alice');
    assert.equal(alice.body.loyalty.points, 32);
    const feed = await get('/v1/customers/alice/activity?limit=100');
    const types = (feed.body.data as Array<{ type: string }>).map((e) => e.type).reverse();
    const accrual = ['customer.rewarded.loyalty_points', 'customer.voucher.loyalty_card.points_added'];
    assert.deepEqual(types.slice(-9), [
      'customer.order.created',
      'customer.order.paid',
      ...accrual,
      ...accrual,
      ...accrual,
      'customer.voucher.loyalty_card.pending_points.added',
    ]);
  });

  it('lists the pending points whole, on the card and in the program', async () => {
    const list = await get(`/v1/loyalties/members/${cards.aliceStars!.code}/pending-points`);
    const o1 = (await get('/v1/orders/o-1')).body;
    const pending = list.body.data[0];
    assert.match(pending.id, /^lopp_[0-9A-Za-z]{16}$/);
    const res = list as TestResponse;
    assert.deepEqual(list.body, {
      object: 'list',
      data_ref: 'data',
      data: [
        {
          id: pending.id,
          voucher_id: cards.aliceStars!.id,
          campaign_id: (await get('/v1/loyalties/Stars')).body.id,
          customer_id: o1.customer_id,
          order_id: o1.id,
          points: 7,
          activates_at: '2026-03-05',
          details: {
            event: {
              type: 'customer.order.paid',
              group_id: pending.details.event.group_id,
              entity_id: o1.customer_id,
              created_at: T0,
              category: 'ACTION',
              event_source: { channel: 'API', api_key: { name: 'test server key', app_id: server.serverKey.app_id } },
            },
            earning_rule: { id: starsRule.id, source: { banner: 'Seven, in three days' } },
            order: { id: o1.id, source_id: 'o-1' },
          },
          created_at: T0,
          updated_at: null,
        },
      ],
      has_more: false,
    });
    assert.ok(requestIdOf(res));
    assertMatchesReference('GET', '/v1/loyalties/members/{memberId}/pending-points', 200, list.body);
    const byProgram = await get('/v1/loyalties/Stars/members/' + cards.aliceStars!.code + '/pending-points');
    assert.deepEqual(byProgram.body, list.body);
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/members/{memberId}/pending-points', 200, byProgram.body);
    const program = await get('/v1/loyalties/Stars/pending-points');
    assert.deepEqual(program.body, list.body);
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/pending-points', 200, program.body);
    const otherProgram = await get('/v1/loyalties/Club/members/' + cards.aliceStars!.code + '/pending-points');
    assert.deepEqual(otherProgram.body, notFoundBody(otherProgram, 'voucher', cards.aliceStars!.code));
  });

  it('earns once per order: updated to PAID earns, re-sent PAID does not; no customer, a non-member and an import earn nothing', async () => {
    await order('o-2', 'bob', 'CREATED');
    assert.deepEqual(await loyaltyCard('bob'), card({}));
    await server.request('PUT', '/v1/orders/o-2', { body: { status: 'PAID' } });
    await server.request('PUT', '/v1/orders/o-2', { body: { status: 'PAID', metadata: { again: true } } });
    assert.deepEqual(await loyaltyCard('bob'), card({ points: 32, balance: 32 }));
    const expires = programExpiryDate({ period_type: 'MONTH', period_value: 1 }, T0.slice(0, 10));
    assert.ok(expires && expires > T0.slice(0, 10));
    assert.deepEqual(
      await loyaltyCard('bobBrief'),
      card({ points: 3, balance: 3, next_expiration_date: expires, next_expiration_points: 3 }),
      "the rule's own expiration_rules",
    );
    const before = dbFingerprint(sqliteOf(server.deps));
    await order('o-3', null, 'PAID');
    await order('o-4', 'carol', 'PAID');
    const ledgerRows = () =>
      sqliteOf(server.deps).prepare('SELECT count(*) AS n FROM ledger_entries').get() as { n: number };
    const rowsBefore = ledgerRows().n;
    const ctx = { actor: internalActor(), at: T0, seams: server.deps.seams };
    await server.deps.db
      .transaction()
      .execute((trx) =>
        upsertOrder(
          trx,
          ctx,
          { source_id: 'o-imp', status: 'PAID', customer: { source_id: 'alice' }, amount: 99900 },
          IMPORT_UPSERT,
        ),
      );
    assert.notEqual(dbFingerprint(sqliteOf(server.deps)), before);
    assert.equal(ledgerRows().n, rowsBefore, 'no ledger row for orders without a member or imported');
    assert.deepEqual(await loyaltyCard('alice'), card({ points: 32, balance: 32 }));
  });

  it('activates pending points by hand (4.7): the exact balance answer, then 400 once active', async () => {
    const [pending] = (await get(`/v1/loyalties/members/${cards.aliceStars!.code}/pending-points`)).body.data;
    const path = `/v1/loyalties/members/${cards.aliceStars!.code}/pending-points/${pending.id}/activate`;
    const res = await post(path);
    assert.deepEqual(res.body, {
      points: 7,
      total: 7,
      balance: 7,
      type: 'loyalty_card',
      object: 'balance',
      related_object: { type: 'voucher', id: cards.aliceStars!.id },
      operation_type: 'MANUAL',
    });
    assertMatchesReference(
      'POST',
      '/v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/activate',
      200,
      res.body,
    );
    assert.deepEqual(await loyaltyCard('aliceStars'), card({ points: 7, balance: 7 }));
    assert.deepEqual((await get(`/v1/loyalties/members/${cards.aliceStars!.code}/pending-points`)).body, {
      object: 'list',
      data_ref: 'data',
      data: [],
      has_more: false,
    });
    const before = dbFingerprint(sqliteOf(server.deps));
    const again = await post(path);
    assert.deepEqual(
      again.body,
      errorBody(again, {
        code: 400,
        key: 'invalid_pending_points_state',
        message: 'Invalid pending points state',
        details: "Only pending points in 'PENDING' status can be activated. Current status: 'ACTIVATED'.",
      }),
    );
    const unknown = await post(`/v1/loyalties/members/${cards.aliceStars!.code}/pending-points/lopp_nope/activate`);
    assert.deepEqual(unknown.body, notFoundBody(unknown, 'pending_points', 'lopp_nope'));
    const otherCard = await post(`/v1/loyalties/members/${cards.alice!.code}/pending-points/${pending.id}/activate`);
    assert.deepEqual(otherCard.body, notFoundBody(otherCard, 'pending_points', pending.id));
    const noCard = await post(`/v1/loyalties/members/NOPE/pending-points/${pending.id}/activate`);
    assert.deepEqual(noCard.body, notFoundBody(noCard, 'voucher', 'NOPE'));
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before, 'refusals wrote nothing');
  });

  it('the sweep activates due pending points once, under an injected clock', async () => {
    clock.set(new Date(Date.parse(T0) + DAY).toISOString());
    await order('o-5', 'alice', 'PAID'); // Club +32, Stars 7 pending until T0 + 4 days
    assert.deepEqual(await loyaltyCard('aliceStars'), card({ points: 7, balance: 7, pending_points: 7 }));
    clock.set(new Date(Date.parse(T0) + 4 * DAY - 1).toISOString());
    assert.equal(await activateDuePendingPoints(server.deps, internalActor()), 0, 'not due a millisecond early');
    clock.set(new Date(Date.parse(T0) + 4 * DAY).toISOString());
    // The registered sweep, run by the job runner's loop (on start, then on demand).
    const loop = startSweeps(server.deps, sweepRegistry);
    await loop.runNow();
    await loop.stop();
    assert.equal(await activateDuePendingPoints(server.deps, internalActor()), 0, 'once');
    assert.deepEqual(await loyaltyCard('aliceStars'), card({ points: 14, balance: 14 }));
    const activation = sqliteOf(server.deps)
      .prepare(
        "SELECT delta, operation_type, created_at FROM ledger_entries WHERE voucher_id = ? AND type = 'PENDING_POINTS_ACTIVATION' ORDER BY seq",
      )
      .all(cards.aliceStars!.id);
    assert.deepEqual(activation, [
      { delta: 7, operation_type: 'MANUAL', created_at: T0 },
      { delta: 7, operation_type: 'AUTOMATIC', created_at: new Date(Date.parse(T0) + 4 * DAY).toISOString() },
    ]);
  });

  it('an order CANCELED before activation cancels its pending points; activated ones stay', async () => {
    const placed = await order('o-6', 'alice', 'PAID');
    assert.equal(placed.status, 200);
    assert.deepEqual(await loyaltyCard('aliceStars'), card({ points: 14, balance: 14, pending_points: 7 }));
    const [pending] = (await get(`/v1/loyalties/members/${cards.aliceStars!.code}/pending-points`)).body.data;
    await server.request('PUT', '/v1/orders/o-6', { body: { status: 'CANCELED' } });
    assert.deepEqual(await loyaltyCard('aliceStars'), card({ points: 14, balance: 14 }));
    assert.deepEqual((await get(`/v1/loyalties/members/${cards.aliceStars!.code}/pending-points`)).body.data, []);
    const res = await post(`/v1/loyalties/members/${cards.aliceStars!.code}/pending-points/${pending.id}/activate`);
    assert.equal(
      res.body.details,
      "Only pending points in 'PENDING' status can be activated. Current status: 'CANCELED'.",
    );
    await server.request('PUT', '/v1/orders/o-1', { body: { status: 'CANCELED' } });
    assert.deepEqual(
      await loyaltyCard('aliceStars'),
      card({ points: 14, balance: 14 }),
      "o-1's points were already active",
    );
    const feed = await get('/v1/customers/alice/activity?limit=3');
    assert.ok(
      (feed.body.data as Array<{ type: string }>).some(
        (e) => e.type === 'customer.voucher.loyalty_card.pending_points.canceled',
      ),
    );
    assert.equal(clubRules.length, 7);
  });
});
