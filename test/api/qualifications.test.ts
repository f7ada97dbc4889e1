import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_STACKING_RULES } from '../../src/engine/stacking/index.js';
import { fixedClock } from '../../src/lib/clock.js';
import { dbFingerprint } from '../support/db.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import {
  beyondSdkTypes,
  clientSideClient,
  serverSideClient,
  type ClientSideClient,
  type ServerSideClient,
} from '../support/sdk.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

/** A setup request one second after the last, which must succeed: its body. */
const caller =
  (server: () => TestServer, clock: ReturnType<typeof fixedClock>) =>
  async (method: string, path: string, body?: unknown) => {
    clock.advance(1000);
    const res = await server().request(method, path, body === undefined ? {} : { body });
    assert.ok(res.status < 300, `${method} ${path}: ${res.text}`);
    return res.body;
  };

/**
 * POST /v1/qualifications and /client/v1/qualifications through the official SDK: the
 * customer's vouchers, the promotion tiers available now and the standalone vouchers nobody
 * holds, each validated alone against the request's customer and order; the applicable ones
 * answered newest first, a page at a time, and nothing written.
 */
describe('qualifications (check eligibility)', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  let browser: ClientSideClient;
  const clock = fixedClock('2025-01-01T00:00:00.000Z');
  const ids: Record<string, string> = {};
  const created: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  let untouched = '';

  const call = caller(() => server, clock);
  const rule = async (name: string, rules: Record<string, unknown>) =>
    (await call('POST', '/v1/validation-rules', { name, rules })).id as string;
  const voucher = async (code: string, body: Record<string, unknown>, path = `/v1/vouchers/${code}`) => {
    created[code] = (await call('POST', path, body)).created_at;
  };

  before(async () => {
    server = await startTestServer({ clock });
    sdk = serverSideClient(server);
    browser = clientSideClient(server);
    ids.ann = (await call('POST', '/v1/customers', { source_id: 'q-ann', metadata: { tier: 'silver' } })).id;
    ids.bea = (await call('POST', '/v1/customers', { source_id: 'q-bea', metadata: { tier: 'gold' } })).id;
    const big = await rule('Big orders', {
      '1': { name: 'order.amount', conditions: { $more_than: [100000] } },
      logic: '1',
    });
    const gold = await rule('Gold', {
      '1': { name: 'customer.metadata', property: 'tier', conditions: { $is: ['gold'] } },
      logic: '1',
    });
    await voucher('Q-STAND', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } });
    await voucher('Q-OFF', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 50 }, active: false });
    const promo = await call('POST', '/v1/campaigns', {
      name: 'Q Promo',
      campaign_type: 'PROMOTION',
      promotion: {
        tiers: [
          { name: 'Three off', banner: 'Save 3', action: { discount: { type: 'AMOUNT', amount_off: 300 } } },
          { name: 'Gold five', action: { discount: { type: 'AMOUNT', amount_off: 500 } } },
        ],
      },
    });
    [ids.tierA, ids.tierB] = promo.promotion.tiers.map((t: { id: string }) => t.id);
    ids.promo = promo.id;
    created.tiers = promo.promotion.tiers[0].created_at;
    const coupons = await call('POST', '/v1/campaigns', {
      name: 'Q Coupons',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      vouchers_count: 0,
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } },
    });
    ids.coupons = coupons.id;
    await voucher('Q-W1', {}, `/v1/campaigns/${coupons.id}/vouchers/Q-W1`);
    await voucher('Q-W2', {}, `/v1/campaigns/${coupons.id}/vouchers/Q-W2`);
    await voucher('Q-GIFT', { type: 'GIFT_VOUCHER', gift: { amount: 2000 } });
    await call('POST', `/v1/validation-rules/${big}/assignments`, { voucher: 'Q-W2' });
    await call('POST', `/v1/validation-rules/${gold}/assignments`, { promotion_tier: ids.tierB });
    for (const code of ['Q-W1', 'Q-W2', 'Q-GIFT'])
      await call('POST', '/v1/publications', { customer: { source_id: 'q-ann' }, voucher: code });
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    for (const scope of ['qualifications', 'validations']) {
      const issued = await server.request('POST', '/v1/oauth/token', {
        raw: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
        headers: form,
      });
      tokens[scope] = issued.body.access_token;
    }
    clock.advance(1000);
    untouched = dbFingerprint(sqliteOf(server.deps));
  });
  after(async () => {
    try {
      assert.equal(dbFingerprint(sqliteOf(server.deps)), untouched, 'no qualification writes anything');
      assert.deepEqual(server.logged, []);
    } finally {
      await server.close();
    }
  });

  const NOW = () => clock.now().toISOString();
  const EMPTY = { data: [], total: 0, data_ref: 'data', object: 'list' };
  /** The request's 10000 order after `off`, for this customer (previewed: no id, not stored). */
  const order = (off: number, customerId: string | null = ids.ann as string) => ({
    source_id: null,
    status: 'CREATED',
    amount: 10000,
    initial_amount: 10000,
    discount_amount: off,
    items_discount_amount: 0,
    total_discount_amount: off,
    total_amount: 10000 - off,
    applied_discount_amount: off,
    items_applied_discount_amount: 0,
    total_applied_discount_amount: off,
    items: [],
    metadata: {},
    object: 'order',
    created_at: NOW(),
    updated_at: null,
    customer_id: customerId,
    referrer_id: null,
    ...(customerId ? { customer: { id: customerId, object: 'customer' } } : {}),
    redemptions: {},
  });
  const item = (
    id: string,
    object: string,
    createdAt: string,
    result: Record<string, unknown>,
    off: number | null,
    extra: Record<string, unknown> = {},
  ) => ({
    id,
    object,
    created_at: createdAt,
    result,
    ...(off === null ? {} : { order: order(off) }),
    applicable_to: EMPTY,
    inapplicable_to: EMPTY,
    ...extra,
  });
  const amountOff = (amount: number) => ({ discount: { type: 'AMOUNT', amount_off: amount } });
  const gift = (off: number | null) =>
    item('Q-GIFT', 'voucher', created['Q-GIFT'] as string, { gift: { balance: 2000, credits: off ?? 0 } }, off);
  const w1 = (off: number | null) => item('Q-W1', 'voucher', created['Q-W1'] as string, amountOff(500), off);
  const w2 = (off: number | null) => item('Q-W2', 'voucher', created['Q-W2'] as string, amountOff(500), off);
  const tierA = (off: number | null) =>
    item(ids.tierA as string, 'promotion_tier', created.tiers as string, amountOff(300), off);
  const stand = (off: number | null) =>
    item('Q-STAND', 'voucher', created['Q-STAND'] as string, { discount: { type: 'PERCENT', percent_off: 10 } }, off);
  const list = (data: unknown[], more?: string) => ({
    object: 'list',
    data_ref: 'data',
    data,
    total: data.length,
    has_more: more !== undefined,
    ...(more ? { more_starting_after: more } : {}),
  });
  const answerOf = (data: unknown[], more?: string, extra: Record<string, unknown> = { order: order(0) }) => ({
    redeemables: list(data, more),
    tracking_id: 'q-ann',
    ...extra,
    stacking_rules: DEFAULT_STACKING_RULES,
  });
  const ANN = { customer: { source_id: 'q-ann' }, order: { amount: 10000 } };

  it('ALL: the wallet, the tiers available now and standalone vouchers that apply, newest first; the others are left out', async () => {
    const answer = await sdk.qualifications.checkEligibility(beyondSdkTypes({ ...ANN, options: { limit: 10 } }));
    // Q-W2 (orders over 100000), the Gold tier (gold customers) and Q-OFF (disabled) do not apply.
    assert.deepEqual(answer, answerOf([gift(2000), w1(500), tierA(300), stand(1000)]));
    assertMatchesReference('POST', '/v1/qualifications', 200, withoutNulls(answer));
    const defaults = await sdk.qualifications.checkEligibility(beyondSdkTypes(ANN));
    assert.deepEqual(defaults, answer, 'ALL is the default scenario, 5 the default limit');
  });

  it('answers the client side the same', async () => {
    const server_ = await sdk.qualifications.checkEligibility(beyondSdkTypes({ ...ANN, scenario: 'CUSTOMER_WALLET' }));
    const client = await browser.qualifications(beyondSdkTypes({ ...ANN, scenario: 'CUSTOMER_WALLET' }));
    assert.deepEqual(client, server_);
    assert.deepEqual(client, answerOf([gift(2000), w1(500)]));
  });

  it('AUDIENCE_ONLY: checks the customer alone (order rules and a missing order pass), answers no order', async () => {
    const answer = await sdk.qualifications.checkEligibility(
      beyondSdkTypes({
        ...ANN,
        scenario: 'AUDIENCE_ONLY',
        options: { limit: 10 },
      }),
    );
    assert.deepEqual(answer, answerOf([gift(null), w2(null), w1(null), tierA(null), stand(null)], undefined, {}));
    assertMatchesReference('POST', '/v1/qualifications', 200, withoutNulls(answer));
    const gold = await sdk.qualifications.checkEligibility(
      beyondSdkTypes({
        customer: { source_id: 'q-bea' },
        scenario: 'AUDIENCE_ONLY',
        options: { limit: 10 },
      }),
    );
    assert.deepEqual(
      gold.redeemables.data.map((r: { id: string }) => r.id),
      [ids.tierB, ids.tierA, 'Q-STAND'],
    );
  });

  it('pages with limit and starting_after (a page does not split one instant), and expands the redeemables', async () => {
    const first = await sdk.qualifications.checkEligibility(
      beyondSdkTypes({
        ...ANN,
        options: { limit: 2, expand: ['redeemable', 'category', 'validation_rules'] },
      }),
    );
    const expanded = {
      metadata: {},
      categories: [],
      validation_rules_assignments: { object: 'list', data_ref: 'data', data: [], total: 0 },
    };
    const campaign = { campaign_name: 'Q Coupons', campaign_id: ids.coupons };
    assert.deepEqual(
      first,
      answerOf(
        [
          { ...gift(2000), ...expanded },
          { ...w1(500), ...expanded, ...campaign },
        ],
        created['Q-W1'],
      ),
    );
    assertMatchesReference('POST', '/v1/qualifications', 200, withoutNulls(first));
    const second = await sdk.qualifications.checkEligibility(
      beyondSdkTypes({
        ...ANN,
        options: { limit: 2, starting_after: created['Q-W1'], expand: ['redeemable'] },
      }),
    );
    const tier = {
      metadata: {},
      name: 'Three off',
      banner: 'Save 3',
      campaign_name: 'Q Promo',
      campaign_id: ids.promo,
    };
    assert.deepEqual(
      second,
      answerOf([
        { ...tierA(300), ...tier },
        { ...stand(1000), metadata: {} },
      ]),
    );
  });

  it('sorts a page by the deal with BEST_DEAL and LEAST_DEAL', async () => {
    const ids_ = async (sorting_rule: string) =>
      (
        await sdk.qualifications.checkEligibility(beyondSdkTypes({ ...ANN, options: { limit: 10, sorting_rule } }))
      ).redeemables.data.map((r: { id: string }) => r.id);
    assert.deepEqual(await ids_('BEST_DEAL'), ['Q-GIFT', 'Q-STAND', 'Q-W1', ids.tierA]);
    assert.deepEqual(await ids_('LEAST_DEAL'), [ids.tierA, 'Q-W1', 'Q-STAND', 'Q-GIFT']);
  });

  it('filters by resource type, code, campaign and voucher type, joined by and or or', async () => {
    const codes = async (filters: Record<string, unknown>) =>
      (
        await sdk.qualifications.checkEligibility(beyondSdkTypes({ ...ANN, options: { limit: 10, filters } }))
      ).redeemables.data.map((r: { id: string }) => r.id);
    assert.deepEqual(await codes({ resource_type: { conditions: { $in: ['promotion_tier'] } } }), [ids.tierA]);
    assert.deepEqual(
      await codes({
        resource_type: { conditions: { $is_not: ['promotion_tier'] } },
        voucher_type: { conditions: { $is: ['DISCOUNT_VOUCHER'] } },
      }),
      ['Q-W1', 'Q-STAND'],
    );
    assert.deepEqual(await codes({ campaign_id: { conditions: { $is: [ids.coupons] } } }), ['Q-W1']);
    assert.deepEqual(
      await codes({
        junction: 'or',
        code: { conditions: { $in: ['Q-STAND'] } },
        campaign_type: { conditions: { $is: ['PROMOTION'] } },
      }),
      [ids.tierA, 'Q-STAND'],
    );
    assert.deepEqual(await codes({ holder_role: { conditions: { $is: ['OWNER'] } } }), ['Q-GIFT', 'Q-W1']);
  });

  it('qualifies an unknown customer against what anyone may use, writing no customer', async () => {
    const answer = await sdk.qualifications.checkEligibility(
      beyondSdkTypes({
        customer: { source_id: 'q-nobody' },
        order: { amount: 10000 },
      }),
    );
    assert.deepEqual(
      answer.redeemables.data.map((r: { id: string }) => r.id),
      [ids.tierA, 'Q-STAND'],
    );
    assert.equal(answer.tracking_id, 'q-nobody');
    const anonymous = await sdk.qualifications.checkEligibility(beyondSdkTypes({ order: { amount: 10000 } }));
    assert.deepEqual(
      anonymous.redeemables.data.map((r: { id: string }) => r.id),
      [ids.tierA, 'Q-STAND'],
    );
    assert.equal(anonymous.tracking_id, null);
  });

  it('opens to tokens with the qualifications scope (or api), not to others', async () => {
    const open = await server.request('POST', '/v1/qualifications', {
      body: ANN,
      auth: { bearer: tokens.qualifications as string },
    });
    assert.deepEqual([open.status, open.body.redeemables.total], [200, 4]);
    const shut = await server.request('POST', '/v1/qualifications', {
      body: ANN,
      auth: { bearer: tokens.validations as string },
    });
    assert.deepEqual(
      shut.body,
      errorBody(shut, {
        code: 403,
        key: 'missing_required_permission',
        message: 'Missing permission',
        details: "The token's scope (validations) does not open /v1/qualifications",
      }),
    );
  });

  it('refuses bad input and the scenarios it does not serve with the documented error body', async () => {
    const cases: Array<[unknown, string]> = [
      [
        { scenario: 'PRODUCTS' },
        'scenario PRODUCTS is not supported; supported scenarios: ALL, CUSTOMER_WALLET, AUDIENCE_ONLY, PROMOTION_STACKS',
      ],
      [
        { scenario: 'PRODUCTS_DISCOUNT_BY_CUSTOMER' },
        'scenario PRODUCTS_DISCOUNT_BY_CUSTOMER is not supported; supported scenarios: ALL, CUSTOMER_WALLET, AUDIENCE_ONLY, PROMOTION_STACKS',
      ],
      [
        { scenario: 'SOME' },
        'scenario must be one of: ALL, CUSTOMER_WALLET, AUDIENCE_ONLY, PRODUCTS, PRODUCTS_DISCOUNT, PROMOTION_STACKS, PRODUCTS_BY_CUSTOMER, PRODUCTS_DISCOUNT_BY_CUSTOMER',
      ],
      [{ options: { limit: 51 } }, 'options.limit must be an integer from 1 to 50'],
      [
        { options: { limit: 0, starting_after: 'yesterday' } },
        'options.limit must be an integer from 1 to 50; options.starting_after must be an ISO 8601 date-time',
      ],
      [
        { options: { sorting_rule: 'CHEAPEST', expand: ['everything'] } },
        'options.expand[0] must be one of: redeemable, category, validation_rules; options.sorting_rule must be one of: DEFAULT, BEST_DEAL, LEAST_DEAL',
      ],
      [
        { options: { filters: { junction: 'xor', resource_type: { conditions: { $in: ['order'] } } } } },
        'options.filters.junction must be one of: and, or; options.filters.resource_type.conditions.$in[0] must be one of: campaign, voucher, promotion_tier',
      ],
      [{ order: 'big' }, 'order must be an object'],
      [[1], 'The body must be a JSON object'],
    ];
    for (const [body, details] of cases) {
      for (const path of ['/v1/qualifications', '/client/v1/qualifications']) {
        const res = await server.request('POST', path, {
          body,
          auth: path.startsWith('/client') ? 'client' : 'server',
        });
        assert.deepEqual(
          [res.status, res.body],
          [400, errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details })],
          `${path} ${JSON.stringify(body)}`,
        );
      }
    }
  });
});

/**
 * Paging past the walk's chunks (50 candidates) and through runs of one instant (the tiers of a
 * campaign share their created_at): every qualified redeemable comes exactly once, newest
 * first; a loyalty card qualifies by its balance.
 */
describe('qualifications across chunks and instants', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  const clock = fixedClock('2025-02-01T00:00:00.000Z');
  const expected: string[] = [];
  let untouched = '';
  let card = '';

  const call = caller(() => server, clock);

  before(async () => {
    server = await startTestServer({ clock });
    sdk = serverSideClient(server);
    await call('POST', '/v1/customers', { source_id: 'q-cal' });
    await call('POST', '/v1/loyalties', {
      name: 'Q Club',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    });
    card = (await call('POST', '/v1/loyalties/Q Club/members', { customer: { source_id: 'q-cal' } })).code;
    await call('POST', `/v1/loyalties/members/${card}/balance`, { points: 120 });
    await call('POST', '/v1/loyalties/Q Club/members', { customer: { source_id: 'q-other' } });
    expected.unshift(card);
    for (let i = 0; i < 60; i++) {
      const code = `Q-C${String(i).padStart(2, '0')}`;
      await call('POST', `/v1/vouchers/${code}`, {
        type: 'DISCOUNT_VOUCHER',
        discount: { type: 'AMOUNT', amount_off: 100 + i },
      });
      if (i % 3 !== 0) await call('POST', '/v1/publications', { customer: { source_id: 'q-cal' }, voucher: code });
      // Every third one stays standalone; those over 150 off are given to nobody and stay in ALL too.
      expected.unshift(code);
    }
    const tiers = Array.from({ length: 7 }, (_, i) => ({
      name: `Run ${i}`,
      action: { discount: { type: 'AMOUNT', amount_off: 10 + i } },
    }));
    const promo = await call('POST', '/v1/campaigns', {
      name: 'Q Run',
      campaign_type: 'PROMOTION',
      promotion: { tiers },
    });
    // One instant: ordered among themselves newest seq first.
    expected.unshift(...promo.promotion.tiers.map((t: { id: string }) => t.id).reverse());
    clock.advance(1000);
    untouched = dbFingerprint(sqliteOf(server.deps));
  });
  after(async () => {
    try {
      assert.equal(dbFingerprint(sqliteOf(server.deps)), untouched);
      assert.deepEqual(server.logged, []);
    } finally {
      await server.close();
    }
  });

  const pages = async (limit: number, scenario = 'ALL') => {
    const sizes: number[] = [];
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 100; guard++) {
      const options = { limit, ...(cursor ? { starting_after: cursor } : {}) };
      const answer = await sdk.qualifications.checkEligibility(
        beyondSdkTypes({
          customer: { source_id: 'q-cal' },
          order: { amount: 5000 },
          scenario,
          options,
        }),
      );
      assertMatchesReference('POST', '/v1/qualifications', 200, withoutNulls(answer));
      sizes.push(answer.redeemables.data.length);
      ids.push(...answer.redeemables.data.map((r: { id: string }) => r.id));
      assert.equal(answer.redeemables.total, answer.redeemables.data.length);
      if (!answer.redeemables.has_more) {
        assert.equal(answer.redeemables.more_starting_after, undefined);
        return { sizes, ids };
      }
      cursor = answer.redeemables.more_starting_after;
      assert.equal(cursor, answer.redeemables.data.at(-1)!.created_at);
    }
    throw new Error('no last page');
  };

  it('pages through every candidate exactly once; a run of one instant that opens a page comes whole', async () => {
    const five = await pages(5);
    assert.deepEqual(five.ids, expected);
    assert.deepEqual(five.sizes, [7, ...Array(12).fill(5), 1]);
    const fifty = await pages(50);
    assert.deepEqual(fifty.ids, expected);
    assert.deepEqual(fifty.sizes, [50, 18]);
  });

  it('answers the wallet alone with CUSTOMER_WALLET, the loyalty card by its balance', async () => {
    const wallet = await pages(50, 'CUSTOMER_WALLET');
    const held = expected.filter((id) => id === card || (/^Q-C/.test(id) && Number(id.slice(3)) % 3 !== 0));
    assert.deepEqual(wallet.ids, held);
    const answer = await sdk.qualifications.checkEligibility(
      beyondSdkTypes({
        customer: { source_id: 'q-cal' },
        order: { amount: 5000 },
        scenario: 'CUSTOMER_WALLET',
        options: { filters: { voucher_type: { conditions: { $is: ['LOYALTY_CARD'] } } } },
      }),
    );
    const { order: _order, ...rest } = answer.redeemables.data[0]!;
    assert.deepEqual(rest, {
      id: card,
      object: 'voucher',
      created_at: rest.created_at,
      result: { loyalty_card: { points: 120, balance: 120 } },
      applicable_to: { data: [], total: 0, data_ref: 'data', object: 'list' },
      inapplicable_to: { data: [], total: 0, data_ref: 'data', object: 'list' },
    });
    assert.equal(_order?.total_discount_amount, 0, 'a card without a reward leaves the order as it is');
  });
});

/**
 * The scan's bound: a request checks at most MAX_SCANNED (1,000) candidates, then answers
 * what it found with has_more and the last checked candidate's created_at as the cursor.
 */
describe('a qualification that would check more than 1,000 candidates', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  const clock = fixedClock('2025-03-01T00:00:00.000Z');

  before(async () => {
    server = await startTestServer({ clock });
    sdk = serverSideClient(server);
    const made = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Q Many',
        campaign_type: 'DISCOUNT_COUPONS',
        vouchers_count: 1010,
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
      },
    });
    assert.equal(made.status, 200, made.text);
    const jobs = await server.request('GET', '/v1/async-actions?limit=1');
    const runner = testRunner(server.deps);
    try {
      await waitForJob(server, jobs.body.async_actions[0].id, 120_000);
    } finally {
      await runner.stop();
    }
    for (let i = 0; i < 21; i++) {
      clock.advance(1000);
      const given = await server.request('POST', '/v1/publications', {
        body: { customer: { source_id: 'q-dan' }, campaign: { name: 'Q Many', count: i < 20 ? 50 : 10 } },
      });
      assert.equal(given.status, 200, given.text);
    }
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('stops at the cap with has_more and the last checked one as the cursor; a page that fills first never reaches it', async () => {
    const body = { customer: { source_id: 'q-dan' }, order: { amount: 5000 }, scenario: 'CUSTOMER_WALLET' };
    const none = await sdk.qualifications.checkEligibility(
      beyondSdkTypes({
        ...body,
        options: { filters: { code: { conditions: { $is: ['NONE'] } } } },
      }),
    );
    // The 1,000th of the held vouchers, newest first (the job stamps them with the real time).
    const held = sqliteOf(server.deps)
      .prepare(
        "SELECT v.created_at FROM vouchers v JOIN customers c ON c.id = v.holder_id WHERE c.source_id = 'q-dan' ORDER BY v.created_at DESC, v.seq DESC",
      )
      .all() as Array<{ created_at: string }>;
    assert.equal(held.length, 1010);
    assert.deepEqual(none.redeemables, {
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
      has_more: true,
      more_starting_after: held[999]?.created_at,
    });
    const fifty = await sdk.qualifications.checkEligibility(beyondSdkTypes({ ...body, options: { limit: 50 } }));
    const page = fifty.redeemables.data.map((r: { created_at: string }) => r.created_at);
    assert.ok(page.length > 0 && page.length <= 50);
    assert.deepEqual(
      page,
      held.slice(0, page.length).map((h) => h.created_at),
    );
    assert.deepEqual([fifty.redeemables.has_more, fifty.redeemables.more_starting_after], [true, page.at(-1)]);
  });
});

/** PROMOTION_STACKS: each stack of a promotion available now, its tiers validated together. */
describe('qualifications of promotion stacks', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  const clock = fixedClock('2025-04-01T00:00:00.000Z');
  const call = caller(() => server, clock);
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startTestServer({ clock });
    sdk = serverSideClient(server);
    await call('POST', '/v1/customers', { source_id: 'q-sue', metadata: { tier: 'silver' } });
    const gold = (
      await call('POST', '/v1/validation-rules', {
        name: 'Gold',
        rules: { '1': { name: 'customer.metadata', property: 'tier', conditions: { $is: ['gold'] } }, logic: '1' },
      })
    ).id;
    const tiers = [
      { name: 'Hundred off', action: { discount: { type: 'AMOUNT', amount_off: 100 } } },
      { name: 'Ten percent', action: { discount: { type: 'PERCENT', percent_off: 10 } } },
      { name: 'Gold only', action: { discount: { type: 'AMOUNT', amount_off: 700 } } },
    ];
    const promo = await call('POST', '/v1/campaigns', {
      name: 'S Promo',
      campaign_type: 'PROMOTION',
      promotion: { tiers },
    });
    [ids.hundred, ids.ten, ids.gold] = promo.promotion.tiers.map((t: { id: string }) => t.id);
    ids.promo = promo.id;
    ids.tiersAt = promo.promotion.tiers[0].created_at;
    await call('POST', `/v1/validation-rules/${gold}/assignments`, { promotion_tier: ids.gold });
    const both = await call('POST', '/v1/promotions/S Promo/stacks', {
      name: 'Both',
      tiers: { ids: [ids.hundred, ids.ten], hierarchy_mode: 'MANUAL' },
    });
    ids.both = both.id;
    ids.bothAt = both.created_at;
    await call('POST', '/v1/promotions/S Promo/stacks', {
      name: 'With gold',
      tiers: { ids: [ids.hundred, ids.gold], hierarchy_mode: 'MANUAL' },
    });
    const off = await call('POST', '/v1/campaigns', {
      name: 'S Off',
      campaign_type: 'PROMOTION',
      promotion: { tiers: [tiers[0]] },
    });
    await call('POST', '/v1/promotions/S Off/stacks', {
      name: 'Off',
      tiers: { ids: [off.promotion.tiers[0].id], hierarchy_mode: 'MANUAL' },
    });
    await call('POST', '/v1/campaigns/S Off/disable');
    clock.advance(1000);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('answers the stacks whose tiers all apply, with the order after them and each tier after those before it', async () => {
    const body = {
      customer: { source_id: 'q-sue' },
      order: { amount: 10000 },
      scenario: 'PROMOTION_STACKS',
      options: { expand: ['redeemable'] },
    };
    const answer = await sdk.qualifications.checkEligibility(beyondSdkTypes(body));
    assertMatchesReference('POST', '/v1/qualifications', 200, withoutNulls(answer));
    const figures = (order?: { amount?: number; total_discount_amount?: number; total_amount?: number }) => [
      order?.amount,
      order?.total_discount_amount,
      order?.total_amount,
    ];
    const [stack, ...others] = answer.redeemables.data;
    assert.deepEqual(others, [], "the gold stack (a tier for gold customers) and the inactive campaign's are left out");
    const { order, redeemables, ...rest } = stack!;
    assert.deepEqual(rest, {
      id: ids.both,
      object: 'promotion_stack',
      created_at: ids.bothAt,
      result: {},
      campaign_name: 'S Promo',
      campaign_id: ids.promo,
    });
    assert.deepEqual(figures(order), [10000, 1090, 8910]);
    assert.deepEqual(
      redeemables?.map((r) => [r.id, r.object, r.created_at, r.result, r.name, figures(r.order)]),
      [
        [
          ids.hundred,
          'promotion_tier',
          ids.tiersAt,
          { discount: { type: 'AMOUNT', amount_off: 100 } },
          'Hundred off',
          [10000, 100, 9900],
        ],
        [
          ids.ten,
          'promotion_tier',
          ids.tiersAt,
          { discount: { type: 'PERCENT', percent_off: 10 } },
          'Ten percent',
          [10000, 1090, 8910],
        ],
      ],
    );
    assert.deepEqual(answer.redeemables.has_more, false);
  });
});
