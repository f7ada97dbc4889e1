import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { dbFingerprint } from '../support/db.js';
import { assertMatchesReference } from '../support/openapi.js';
import { serverSideClient } from '../support/sdk.js';
import { errorBody, notFoundBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { giftCard, loyaltyCard } from '../modules/ledgers/fixtures.js';
import { assertCardMatchesLedger } from '../modules/ledgers/recompute.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2026-03-15T12:00:00.000Z';
const MEMBER_PATH = '/v1/loyalties/members/{memberId}/balance';

/** The reference's "Adjust Loyalty Card Balance" (both paths) and POST /v1/vouchers/{code}/balance: exact answers, refusals that change nothing. */
describe('balance endpoints', () => {
  let server: TestServer;
  let cardId: string;
  let campaignId: string;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    const made = await loyaltyCard(server, 'Balance program', 'BAL-1', 0, {
      expiration_rules: { period_type: 'MONTH', period_value: 1, rounding_type: 'END_OF_MONTH' },
    });
    cardId = made.card.id;
    campaignId = made.campaign.id;
  });
  after(async () => server.close());

  const balance = (
    points: number,
    total: number,
    left: number,
    id = cardId,
    field = 'points',
    type = 'loyalty_card',
  ) => ({
    [field]: points,
    total,
    balance: left,
    type,
    object: 'balance',
    related_object: { type: 'voucher', id },
    operation_type: 'MANUAL',
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    server.request('POST', path, { body, headers });
  const refused = async (
    request: () => Promise<TestResponse>,
    status: number,
    fields: { key: string; message: string; details: string },
  ) => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const res = await request();
    assert.deepEqual([res.status, res.body], [status, errorBody(res, { code: status, ...fields })]);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  };

  it("adds points under the program's rules, never-expiring and to a date, and removes them, soonest-expiring first", async () => {
    const added = await post('/v1/loyalties/members/BAL-1/balance', {
      points: 100,
      reason: 'welcome',
      source_id: 'crm-1',
    });
    assert.deepEqual([added.status, added.body], [200, balance(100, 100, 100)]);
    assertMatchesReference('POST', MEMBER_PATH, 200, added.body);
    const never = await post(`/v1/loyalties/${campaignId}/members/BAL-1/balance`, {
      points: 50,
      expiration_type: 'NON_EXPIRING',
    });
    assert.deepEqual(never.body, balance(50, 150, 150));
    assertMatchesReference('POST', '/v1/loyalties/{campaignId}/members/{memberId}/balance', 200, never.body);
    const dated = await post(
      '/v1/loyalties/members/BAL-1/balance',
      { points: 20, expiration_type: 'CUSTOM_DATE', expiration_date: '2026-04-01' },
      { 'X-Voucherify-Channel': 'POS' },
    );
    assert.deepEqual(dated.body, balance(20, 170, 170));
    const removed = await post('/v1/loyalties/members/BAL-1/balance', { points: -30 });
    assert.deepEqual(removed.body, balance(-30, 170, 140));
    const expiration = await server.request('GET', `/v1/loyalties/${campaignId}/members/BAL-1/points-expiration`);
    const bucket = (total: number, expires: string | null) => ({
      id: expiration.body.data.find((b: { expires_at?: string }) => (b.expires_at ?? null) === expires).id,
      voucher_id: cardId,
      campaign_id: campaignId,
      bucket: { total_points: total },
      status: 'ACTIVE',
      ...(expires ? { expires_at: expires } : {}),
      created_at: NOW,
      ...(total !== (expires === null ? 50 : 100) ? { updated_at: NOW } : {}),
      object: 'loyalty_points_bucket',
    });
    // 2026-03-15 + 1 month, rounded to the end of April: 2026-04-30. The 30 removed came from 2026-04-01's 20, then 10 of April's end.
    assert.deepEqual(expiration.body, {
      object: 'list',
      data_ref: 'data',
      data: [bucket(90, '2026-04-30'), bucket(50, null)],
      total: 2,
    });
    assertMatchesReference(
      'GET',
      '/v1/loyalties/{campaignId}/members/{memberId}/points-expiration',
      200,
      expiration.body,
    );
    const card = await server.request('GET', '/v1/vouchers/BAL-1');
    assert.deepEqual(card.body.loyalty_card, {
      points: 170,
      balance: 140,
      next_expiration_date: '2026-04-30',
      next_expiration_points: 90,
      pending_points: 0,
      expired_points: 0,
      subtracted_points: 30,
    });
    assertCardMatchesLedger(sqliteOf(server.deps), cardId);
  });

  it("lists the card's transactions newest first, cursor-paged, on all three paths", async () => {
    const all = await server.request('GET', '/v1/loyalties/members/BAL-1/transactions?limit=3');
    const tx = (type: string, points: number, total: number, left: number, extra: Record<string, unknown> = {}) => ({
      id: expect(all.body, points),
      source_id: null,
      voucher_id: cardId,
      campaign_id: campaignId,
      source: null,
      reason: null,
      type,
      details: {
        balance: {
          type: 'loyalty_card',
          total,
          object: 'balance',
          points,
          balance: left,
          operation_type: 'MANUAL',
          related_object: { id: cardId, type: 'voucher' },
        },
      },
      related_transaction_id: null,
      created_at: NOW,
      ...extra,
    });
    const expect = (_body: unknown, points: number) => rowIds.get(points);
    const rowIds = new Map(
      (
        sqliteOf(server.deps)
          .prepare('SELECT delta, id FROM ledger_entries WHERE voucher_id = ?')
          .all(cardId) as Array<{ delta: number; id: string }>
      ).map((r) => [r.delta, r.id]),
    );
    assert.deepEqual(all.body, {
      object: 'list',
      data_ref: 'data',
      data: [
        tx('POINTS_REMOVAL', -30, 170, 140),
        tx('POINTS_ADDITION', 20, 170, 170, { source: 'POS' }),
        tx('POINTS_ADDITION', 50, 150, 150),
      ],
      has_more: true,
      more_starting_after: rowIds.get(50),
    });
    assertMatchesReference('GET', '/v1/loyalties/members/{memberId}/transactions', 200, all.body);
    const next = await server.request(
      'GET',
      `/v1/loyalties/${campaignId}/members/BAL-1/transactions?limit=3&starting_after_id=${rowIds.get(50)}`,
    );
    assert.deepEqual(next.body, {
      object: 'list',
      data_ref: 'data',
      data: [tx('POINTS_ADDITION', 100, 100, 100, { source_id: 'crm-1', reason: 'welcome' })],
      has_more: false,
    });
    const ascending = await server.request('GET', '/v1/vouchers/BAL-1/transactions?order=id&limit=1');
    assert.deepEqual(
      ascending.body.data.map((t: { id: string }) => t.id),
      [rowIds.get(100)],
    );
    assertMatchesReference('GET', '/v1/vouchers/{code}/transactions', 200, ascending.body);
    const foreign = await server.request('GET', '/v1/vouchers/BAL-1/transactions?starting_after_id=vtx_nothing');
    assert.deepEqual(
      [foreign.status, foreign.body],
      [
        400,
        errorBody(foreign, {
          code: 400,
          key: 'invalid_query_params',
          message: 'Invalid query params',
          details: 'Query parameter starting_after_id names no transaction of BAL-1',
        }),
      ],
    );
  });

  it("refuses the reference's transactions filters, which it does not implement, on all three paths", async () => {
    for (const path of [
      '/v1/loyalties/members/BAL-1/transactions',
      `/v1/loyalties/${campaignId}/members/BAL-1/transactions`,
      '/v1/vouchers/BAL-1/transactions',
    ]) {
      const res = await server.request(
        'GET',
        `${path}?limit=2&filters[created_at][$after]=2026-01-01T00:00:00.000Z&filters[id][$is]=vtx_1`,
      );
      assert.deepEqual(
        [res.status, res.body],
        [
          400,
          errorBody(res, {
            code: 400,
            key: 'invalid_query_params',
            message: 'Invalid query params',
            details: [
              'Query parameter filters[created_at][$after] is not supported (transactions take limit, order and starting_after_id)',
              'Query parameter filters[id][$is] is not supported (transactions take limit, order and starting_after_id)',
            ].join('; '),
          }),
        ],
      );
    }
  });

  it('answers a repeated source_id with the first result and changes nothing', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const again = await post('/v1/loyalties/members/BAL-1/balance', { points: -5, source_id: 'crm-1' });
    assert.deepEqual([again.status, again.body], [200, balance(100, 100, 100)]);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it('refuses too many points, bad and past dates, zero, and cards of another campaign, changing nothing', async () => {
    await refused(() => post('/v1/loyalties/members/BAL-1/balance', { points: -141 }), 400, {
      key: 'loyalty_card_points_exceeded',
      message: 'Loyalty card points exceeded',
      details: 'Cannot take 141 points from BAL-1: its balance is 140',
    });
    await refused(
      () =>
        post('/v1/loyalties/members/BAL-1/balance', {
          points: 5,
          expiration_type: 'CUSTOM_DATE',
          expiration_date: '15/04/2026',
        }),
      400,
      {
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: 'Property .expiration_date cannot be recognized as a ISO-8601 compliant date',
      },
    );
    await refused(
      () =>
        post('/v1/loyalties/members/BAL-1/balance', {
          points: 5,
          expiration_type: 'CUSTOM_DATE',
          expiration_date: '2026-03-14',
        }),
      400,
      {
        key: 'invalid_expiration_date',
        message: 'Invalid expiration date',
        details: 'Expiration date cannot be set in the past',
      },
    );
    await refused(() => post('/v1/loyalties/members/BAL-1/balance', { points: 0 }), 400, {
      key: 'invalid_payload',
      message: 'Invalid payload',
      details: 'points must not be 0',
    });
    await refused(
      () => post('/v1/loyalties/members/BAL-1/balance', { points: 5, expiration_type: 'CUSTOM_DATE' }),
      400,
      {
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: 'expiration_date is required when expiration_type is CUSTOM_DATE',
      },
    );
    const other = await loyaltyCard(server, 'Other program', 'BAL-OTHER', 0);
    const before = dbFingerprint(sqliteOf(server.deps));
    const wrong = await post(`/v1/loyalties/${other.campaign.id}/members/BAL-1/balance`, { points: 5 });
    assert.deepEqual([wrong.status, wrong.body], [404, notFoundBody(wrong, 'voucher', 'BAL-1')]);
    const unknown = await post('/v1/loyalties/members/NOPE/balance', { points: 5 });
    assert.deepEqual([unknown.status, unknown.body], [404, notFoundBody(unknown, 'voucher', 'NOPE')]);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it("adds and removes a gift card's credits on both forms, and refuses more than its balance", async () => {
    const { card } = await giftCard(server, 'Balance gifts', 'GIFT-BAL', 1000);
    const added = await post('/v1/vouchers/GIFT-BAL/balance', { amount: 500, source_id: 'till-7' });
    assert.deepEqual([added.status, added.body], [200, balance(500, 1500, 1500, card.id, 'amount', 'gift_voucher')]);
    assertMatchesReference('POST', '/v1/vouchers/{code}/balance', 200, added.body);
    const removed = await post('/v1/loyalties/members/GIFT-BAL/balance', { points: -200 });
    assert.deepEqual(removed.body, balance(-200, 1500, 1300, card.id, 'points', 'gift_voucher'));
    await refused(() => post('/v1/vouchers/GIFT-BAL/balance', { amount: -1301 }), 400, {
      key: 'gift_amount_exceeded',
      message: 'Gift amount exceeded',
      details: 'Cannot take 1301 from gift card GIFT-BAL: its balance is 1300',
    });
    assertCardMatchesLedger(sqliteOf(server.deps), card.id);
  });

  it('gives the official client answers it accepts, equal to the exact balance object', async () => {
    const client = serverSideClient(server);
    const { card, campaign } = await loyaltyCard(server, 'SDK program', 'SDK-1', 0);
    assert.deepStrictEqual(
      await client.loyalties.addOrRemoveCardBalance('SDK-1', { points: 25 }),
      balance(25, 25, 25, card.id),
    );
    assert.deepStrictEqual(
      await client.loyalties.addOrRemoveCardBalance('SDK-1', { points: -5 }, campaign.id),
      balance(-5, 25, 20, card.id),
    );
    const gift = await giftCard(server, 'SDK gifts', 'SDK-GIFT', 100);
    assert.deepStrictEqual(
      await client.vouchers.balance.create('SDK-GIFT', { amount: 50 }),
      balance(50, 150, 150, gift.card.id, 'amount', 'gift_voucher'),
    );
  });
});
