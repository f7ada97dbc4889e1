import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { dbFingerprint } from '../support/db.js';
import { assertMatchesReference } from '../support/openapi.js';
import { errorBody, notFoundBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const T0 = '2026-01-05T10:00:00.000Z';
const T1 = '2026-01-06T11:00:00.000Z';
const BASE = '/v1/loyalties/{campaignId}/earning-rules';
const ONE = `${BASE}/{earningRuleId}`;

/** Its validation_rule_id is a rule the setup creates (an unknown one is refused: 404). */
const FIXED_RULE = {
  event: 'order.paid',
  validation_rule_id: 'val_set_in_before',
  loyalty: { type: 'FIXED', points: 5 },
  source: { banner: 'Order paid 5 points.' },
  active: true,
  start_date: '2026-01-01T00:00:00.000Z',
  expiration_date: '2026-12-31T00:00:00.000Z',
  validity_timeframe: { duration: 'PT1H', interval: 'P1D' },
  validity_day_of_week: [0, 1, 2, 3, 4, 5],
  metadata: { Type: 'fixed' },
};
const ITEMS_RULE = {
  event: 'order.paid',
  loyalty: {
    type: 'PROPORTIONAL',
    calculation_type: 'ORDER_ITEMS_AMOUNT',
    order_items: {
      amount: {
        every: 200,
        points: 1,
        applicable_to: [
          { object: 'product', id: 'prod_1' },
          { object: 'products_collection', id: 'pc_1' },
        ],
      },
    },
  },
  pending_points: { period_type: 'DAY', period_value: 14 },
  expiration_rules: { period_type: 'MONTH', period_value: 6, rounding_type: 'END_OF_MONTH' },
};
const TIER_RULE = {
  event: 'customer.loyalty.tier.joined',
  loyalty_tier: { id: 'ltr_gold' },
  loyalty: { type: 'FIXED', points: 100 },
  active: false,
};

describe('earning rules API', () => {
  let server: TestServer;
  const clock = fixedClock(T0);
  let programId: string;
  let created: Array<Record<string, unknown>>;

  before(async () => {
    server = await startTestServer({ clock });
    const program = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Club',
        campaign_type: 'LOYALTY_PROGRAM',
        vouchers_count: 0,
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
      },
    });
    assert.equal(program.status, 200, JSON.stringify(program.body));
    programId = program.body.id;
    const rule = await server.request('POST', '/v1/validation-rules', {
      body: {
        name: 'Big orders',
        rules: { '1': { name: 'order.amount', conditions: { $more_than: [10000] } }, logic: '1' },
      },
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    FIXED_RULE.validation_rule_id = rule.body.id;
    await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Coupons',
        campaign_type: 'DISCOUNT_COUPONS',
        vouchers_count: 0,
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
      },
    });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const expected = (id: string, rule: Record<string, unknown>, extra: Record<string, unknown>) => {
    const { source, active, start_date, expiration_date, ...rest } = rule as {
      source?: object;
      active?: boolean;
      start_date?: string;
      expiration_date?: string;
    };
    return {
      id,
      created_at: T0,
      updated_at: null,
      validation_rule_id: null,
      ...rest,
      source: { ...(source ?? {}), object_id: programId, object_type: 'campaign' },
      active: active ?? true,
      // Dates only when set; validation_rule_id null when none (the reference's earning rules).
      ...(start_date ? { start_date } : {}),
      ...(expiration_date ? { expiration_date } : {}),
      object: 'earning_rule',
      metadata: (rule as { metadata?: object }).metadata ?? {},
      ...extra,
    };
  };

  it('creates an array of rules (by program name) and answers each whole', async () => {
    const res = await server.request('POST', '/v1/loyalties/Club/earning-rules', {
      body: [FIXED_RULE, ITEMS_RULE, TIER_RULE],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    created = res.body;
    const ids = created.map((r) => r.id as string);
    for (const id of ids) assert.match(id, /^ern_[0-9A-Za-z]{16}$/);
    assert.deepEqual(res.body, [
      expected(ids[0]!, FIXED_RULE, {}),
      expected(ids[1]!, ITEMS_RULE, {}),
      expected(ids[2]!, TIER_RULE, {}),
    ]);
    assertMatchesReference('POST', BASE, 200, res.body);
  });

  it('gets one, lists them with total in each order, by id or name', async () => {
    const one = await server.request('GET', `/v1/loyalties/${programId}/earning-rules/${created[1]!.id as string}`);
    assert.deepEqual(one.body, created[1]);
    assertMatchesReference('GET', ONE, 200, one.body);
    const list = await server.request('GET', '/v1/loyalties/Club/earning-rules?order=created_at&limit=2&page=2');
    assert.deepEqual(list.body, { object: 'list', data_ref: 'data', data: [created[2]], total: 3 });
    assertMatchesReference('GET', BASE, 200, list.body);
    // All three share created_at: the newest-first default falls back to the reverse of creation.
    const newest = await server.request('GET', `/v1/loyalties/${programId}/earning-rules`);
    assert.deepEqual(newest.body, { object: 'list', data_ref: 'data', data: [...created].reverse(), total: 3 });
  });

  it('updates the fields given, keeps the others, and answers the merged rule', async () => {
    clock.set(T1);
    const id = created[0]!.id as string;
    const res = await server.request('PUT', `/v1/loyalties/Club/earning-rules/${id}`, {
      body: {
        loyalty: {
          type: 'PROPORTIONAL',
          calculation_type: 'ORDER_AMOUNT',
          order: { amount: { every: 100, points: 2 } },
        },
        expiration_date: null,
        validity_timeframe: null,
        metadata: { v: 2 },
      },
    });
    const { validity_timeframe: _gone, expiration_date: _cleared, ...kept } = created[0]!;
    const updated = {
      ...kept,
      updated_at: T1,
      loyalty: { type: 'PROPORTIONAL', calculation_type: 'ORDER_AMOUNT', order: { amount: { every: 100, points: 2 } } },
      metadata: { v: 2 },
    };
    assert.deepEqual(res.body, updated);
    assertMatchesReference('PUT', ONE, 200, res.body);
    const byUpdate = await server.request('GET', '/v1/loyalties/Club/earning-rules?order=-updated_at&limit=1');
    assert.deepEqual(byUpdate.body.data, [updated]);
    created[0] = updated;
  });

  it('disables and enables a rule', async () => {
    const id = created[2]!.id as string;
    const enabled = await server.request('POST', `/v1/loyalties/Club/earning-rules/${id}/enable`);
    assert.deepEqual(enabled.body, { ...created[2], active: true, updated_at: T1 });
    assertMatchesReference('POST', `${ONE}/enable`, 200, enabled.body);
    const disabled = await server.request('POST', `/v1/loyalties/Club/earning-rules/${id}/disable`);
    assert.deepEqual(disabled.body, { ...created[2], active: false, updated_at: T1 });
    assertMatchesReference('POST', `${ONE}/disable`, 200, disabled.body);
  });

  it('deletes a rule: 204, then 404', async () => {
    const id = created[2]!.id as string;
    const res = await server.request('DELETE', `/v1/loyalties/Club/earning-rules/${id}`);
    assert.equal(res.status, 204);
    const gone = await server.request('GET', `/v1/loyalties/Club/earning-rules/${id}`);
    assert.deepEqual(gone.body, notFoundBody(gone, 'earning_rule', id));
    const list = await server.request('GET', '/v1/loyalties/Club/earning-rules?order=created_at');
    assert.deepEqual(list.body, { object: 'list', data_ref: 'data', data: created.slice(0, 2), total: 2 });
  });

  describe('refusals write nothing', () => {
    async function refused(
      method: string,
      path: string,
      body: unknown,
      expected: (res: TestResponse) => unknown,
    ): Promise<void> {
      const before = dbFingerprint(sqliteOf(server.deps));
      const res = await server.request(method, path, { body });
      assert.deepEqual(res.body, expected(res), `${method} ${path} ${JSON.stringify(body)?.slice(0, 200)}`);
      assert.equal(
        dbFingerprint(sqliteOf(server.deps)),
        before,
        `${method} ${path}: a refused request changed the database`,
      );
    }
    const invalid = (details: string) => (res: TestResponse) =>
      errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details });

    it('refuses rules with missing or inconsistent fields, all of them at once, and stores none', async () => {
      const body = [
        { ...FIXED_RULE, loyalty: { type: 'FIXED' } },
        {
          event: 'order.paid',
          loyalty: {
            type: 'PROPORTIONAL',
            calculation_type: 'ORDER_METADATA',
            order: { amount: { every: 1, points: 1 } },
          },
        },
        { event: 'customer.loyalty.tier.upgraded', loyalty: { type: 'FIXED', points: 1 } },
        { event: 'order.paid', loyalty: { type: 'FIXED', points: 1 }, pending_points: { period_value: 91 } },
        {
          event: 'order.paid',
          loyalty: { type: 'FIXED', points: 1 },
          start_date: '2026-02-01',
          expiration_date: '2026-01-01',
        },
      ];
      await refused(
        'POST',
        '/v1/loyalties/Club/earning-rules',
        body,
        invalid(
          [
            '[0].loyalty.points is required for a FIXED rule',
            '[1].loyalty.order.metadata is required for calculation_type ORDER_METADATA',
            '[2].loyalty_tier is required for event customer.loyalty.tier.upgraded',
            '[3].pending_points.period_value must be less than or equal to 90',
          ].join('; '),
        ),
      );
      await refused(
        'POST',
        '/v1/loyalties/Club/earning-rules',
        [body[4]],
        invalid('[0].expiration_date must not be before [0].start_date'),
      );
      await refused(
        'POST',
        '/v1/loyalties/Club/earning-rules',
        [],
        invalid('The body must hold at least one earning rule'),
      );
      await refused(
        'POST',
        '/v1/loyalties/Club/earning-rules',
        { event: 'order.paid' },
        invalid('The body must be a JSON array of earning rules'),
      );
    });

    it('refuses proportional points on a tier rule, also through PUT', async () => {
      const proportional = {
        type: 'PROPORTIONAL',
        calculation_type: 'ORDER_AMOUNT',
        order: { amount: { every: 1, points: 1 } },
      };
      await refused(
        'POST',
        '/v1/loyalties/Club/earning-rules',
        [{ ...TIER_RULE, loyalty: proportional }],
        invalid('[0].event customer.loyalty.tier.joined takes FIXED points only'),
      );
      const tier = await server.request('POST', '/v1/loyalties/Club/earning-rules', { body: [TIER_RULE] });
      const id = tier.body[0].id as string;
      await refused(
        'PUT',
        `/v1/loyalties/Club/earning-rules/${id}`,
        { loyalty: proportional },
        invalid('event customer.loyalty.tier.joined takes FIXED points only'),
      );
      await server.request('DELETE', `/v1/loyalties/Club/earning-rules/${id}`);
    });

    it('answers 404 for an unknown program or rule, and for a campaign that is not a program', async () => {
      await refused('POST', '/v1/loyalties/Nope/earning-rules', [FIXED_RULE], (res) =>
        notFoundBody(res, 'campaign', 'Nope'),
      );
      await refused('GET', '/v1/loyalties/Club/earning-rules/ern_missing', undefined, (res) =>
        notFoundBody(res, 'earning_rule', 'ern_missing'),
      );
      await refused('DELETE', '/v1/loyalties/Club/earning-rules/ern_missing', undefined, (res) =>
        notFoundBody(res, 'earning_rule', 'ern_missing'),
      );
      await refused('POST', '/v1/loyalties/Coupons/earning-rules', [FIXED_RULE], (res) =>
        notFoundBody(res, 'campaign', 'Coupons'),
      );
      const unknownRule = { ...FIXED_RULE, validation_rule_id: 'val_missing' };
      await refused('POST', '/v1/loyalties/Club/earning-rules', [ITEMS_RULE, unknownRule], (res) =>
        notFoundBody(res, 'validation_rules', 'val_missing'),
      );
      await refused(
        'PUT',
        `/v1/loyalties/Club/earning-rules/${created[0]!.id}`,
        { validation_rule_id: 'val_missing', active: false },
        (res) => notFoundBody(res, 'validation_rules', 'val_missing'),
      );
      await refused('GET', '/v1/loyalties/Club/earning-rules?limit=101', undefined, (res) =>
        errorBody(res, {
          code: 400,
          key: 'invalid_query_params',
          message: 'Invalid query params',
          details: 'Query parameter limit must be between 1 and 100',
        }),
      );
    });
  });
});
