import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { discountCampaign, percentDiscount } from '../support/factories.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../support/server.js';
import { voucherBody } from '../support/voucher-shape.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2025-03-01T10:00:00.000Z';

/** The whole voucher body for a code of the campaign, with the given fields changed. */
const voucherShape = (
  body: { id: string; code: string },
  campaign: { id: string; name: string },
  fields: Record<string, unknown>,
) =>
  voucherBody(
    { id: body.id, code: body.code, created_at: NOW },
    { campaign: campaign.name, campaign_id: campaign.id, discount: percentDiscount, ...fields },
  );

describe('POST /v1/campaigns/{id}/vouchers', () => {
  let server: TestServer;
  let campaign: { id: string; name: string };
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    const res = await server.request('POST', '/v1/campaigns', {
      body: discountCampaign(
        'Codes',
        { start_date: '2025-03-01', validity_day_of_week: [5, 6] },
        { code_config: { prefix: 'C-', length: 6, charset: 'ABCDEF' }, redemption: { quantity: 2 } },
      ),
    });
    campaign = { id: res.body.id, name: res.body.name };
  });
  after(() => server.close());

  it('adds one voucher that inherits the campaign (200, the whole voucher)', async () => {
    const res = await server.request('POST', `/v1/campaigns/${campaign.id}/vouchers`, { body: {} });
    assert.equal(res.status, 200);
    assert.match(res.body.code, /^C-[A-F]{6}$/);
    assert.match(res.body.id, /^v_[0-9A-Za-z]{16}$/);
    assert.deepEqual(
      res.body,
      voucherShape(res.body, campaign, {
        start_date: '2025-03-01T00:00:00.000Z',
        validity_day_of_week: [5, 6],
        redemption: { ...voucherShape(res.body, campaign, {}).redemption, quantity: 2 },
      }),
    );
    assertMatchesReference('POST', '/v1/campaigns/{campaignId}/vouchers', 200, withoutNulls(res.body));
    assert.deepEqual((await server.request('GET', `/v1/vouchers/${res.body.code}`)).body, res.body);
  });

  it('lets the body override code, category, metadata, quantity, info and dates', async () => {
    const res = await server.request('POST', '/v1/campaigns/Codes/vouchers?vouchers_count=1', {
      body: {
        code: 'MY/CODE #1',
        category: 'VIP',
        metadata: { tier: 'gold' },
        redemption: { quantity: null },
        additional_info: 'for Ann',
        start_date: '2025-04-01T08',
        expiration_date: '2025-04-30',
      },
    });
    assert.equal(res.status, 200);
    const category = { id: res.body.category_id, name: 'VIP', hierarchy: 0, object: 'category', created_at: NOW };
    assert.deepEqual(
      res.body,
      voucherShape({ id: res.body.id, code: 'MY/CODE #1' }, campaign, {
        category: 'VIP',
        category_id: category.id,
        categories: [category],
        metadata: { tier: 'gold' },
        additional_info: 'for Ann',
        start_date: '2025-04-01T08:00:00.000Z',
        expiration_date: '2025-04-30T00:00:00.000Z',
        validity_day_of_week: [5, 6],
      }),
    );
    const fetched = await server.request('GET', `/v1/vouchers/${encodeURIComponent('MY/CODE #1')}`);
    assert.deepEqual(fetched.body, res.body);
  });

  it('refuses a code that exists anywhere (409), even in another campaign', async () => {
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Other') });
    await server.request('POST', '/v1/campaigns/Other/vouchers', { body: { code: 'SHARED' } });
    const res = await server.request('POST', '/v1/campaigns/Codes/vouchers', { body: { code: 'SHARED' } });
    assert.equal(res.status, 409);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 409,
        key: 'duplicate_found',
        message: 'Duplicated resource found',
        details: 'Duplicated voucher exists with code SHARED',
        resource_type: 'voucher',
      }),
    );
  });

  it('starts a CAMPAIGN.VOUCHERS_GENERATE job for more than one (202)', async () => {
    const res = await server.request('POST', '/v1/campaigns/Codes/vouchers?vouchers_count=5', {
      body: { metadata: { batch: 2 } },
    });
    assert.equal(res.status, 202);
    assert.match(res.body.async_action_id, /^aa_[0-9A-Za-z]{16}$/);
    assert.deepEqual(Object.keys(res.body), ['async_action_id']);
    assertMatchesReference('POST', '/v1/campaigns/{campaignId}/vouchers', 202, res.body);
    const job = await server.request('GET', `/v1/async-actions/${res.body.async_action_id}`);
    assert.deepEqual(
      [job.body.type, job.body.status, job.body.progress],
      ['CAMPAIGN.VOUCHERS_GENERATE', 'IN_PROGRESS', 0],
    );
    assert.equal((await server.request('GET', '/v1/campaigns/Codes')).body.vouchers_generation_status, 'IN_PROGRESS');
  });

  const refusals: Array<{
    name: string;
    path: string;
    body: unknown;
    status?: number;
    key?: string;
    message?: string;
    details: string;
  }> = [
    {
      name: 'a code with a count above 1',
      path: '/v1/campaigns/Codes/vouchers?vouchers_count=2',
      body: { code: 'X' },
      details: 'code can be given only when vouchers_count is 1',
    },
    {
      name: 'a count of 0',
      path: '/v1/campaigns/Codes/vouchers?vouchers_count=0',
      body: {},
      key: 'invalid_query_params',
      message: 'Invalid query params',
      details: 'Query parameter vouchers_count must be an integer from 1 to 10000000',
    },
    {
      name: 'a count that is not a number',
      path: '/v1/campaigns/Codes/vouchers?vouchers_count=many',
      body: {},
      key: 'invalid_query_params',
      message: 'Invalid query params',
      details: 'Query parameter vouchers_count must be an integer from 1 to 10000000',
    },
    {
      name: 'a bad code_config',
      path: '/v1/campaigns/Codes/vouchers',
      body: { code_config: { length: 'long' } },
      details: 'code_config.length must be a number',
    },
    {
      name: 'an unknown code_config field',
      path: '/v1/campaigns/Codes/vouchers',
      body: { code_config: { size: 3 } },
      details: 'code_config field has unspecified keys: size',
    },
    {
      name: 'a negative quantity',
      path: '/v1/campaigns/Codes/vouchers',
      body: { redemption: { quantity: -1 } },
      details: 'redemption.quantity must be greater than or equal to 0',
    },
    {
      name: 'an expiration before the start',
      path: '/v1/campaigns/Codes/vouchers',
      body: { start_date: '2025-05-01', expiration_date: '2025-04-01' },
      details: 'expiration_date must not be before start_date',
    },
    {
      name: 'an unknown campaign',
      path: '/v1/campaigns/nope/vouchers',
      body: {},
      status: 404,
      key: 'not_found',
      message: 'Resource not found',
      details: 'Cannot find campaign with id nope',
    },
  ];
  for (const r of refusals) {
    it(`refuses ${r.name}`, async () => {
      const res = await server.request('POST', r.path, { body: r.body });
      const status = r.status ?? 400;
      assert.equal(res.status, status);
      const extras = status === 404 ? { resource_id: 'nope', resource_type: 'campaign' } : {};
      assert.deepEqual(
        res.body,
        errorBody(res, {
          code: status,
          key: r.key ?? 'invalid_payload',
          message: r.message ?? 'Invalid payload',
          details: r.details,
          ...extras,
        }),
      );
    });
  }

  it('refuses vouchers for a PROMOTION campaign', async () => {
    const promo = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Promo',
        campaign_type: 'PROMOTION',
        promotion: { tiers: [{ name: 't', action: { discount: percentDiscount } }] },
      },
    });
    const res = await server.request('POST', '/v1/campaigns/Promo/vouchers', { body: {} });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_campaign',
        message: 'Invalid campaign',
        details: `Campaign ${promo.body.id} is a PROMOTION campaign; it holds promotion tiers, not vouchers`,
      }),
    );
  });

  it('checks the code space against the codes already taken and reserved', async () => {
    await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Tiny', {}, { code_config: { pattern: 'T#', charset: '0123' } }),
    });
    // 4 codes: one, one, then a job for one more reserves it; then half of what is left is 0.
    assert.equal((await server.request('POST', '/v1/campaigns/Tiny/vouchers', { body: {} })).status, 200);
    assert.equal((await server.request('POST', '/v1/campaigns/Tiny/vouchers', { body: {} })).status, 200);
    const overflow = await server.request('POST', '/v1/campaigns/Tiny/vouchers?vouchers_count=2', { body: {} });
    assert.equal(overflow.status, 400);
    assert.deepEqual(
      overflow.body,
      errorBody(overflow, {
        code: 400,
        key: 'invalid_code_config',
        message: 'Invalid code config',
        details:
          'Cannot generate 2 code(s): the code config allows 4 distinct code(s), 2 of them are already taken or reserved, and a request may use at most half of what is left (1).',
      }),
    );
    const codes = (await server.request('GET', '/v1/vouchers?campaign=Tiny')).body.vouchers.map(
      (v: { code: string }) => v.code,
    );
    assert.equal(new Set(codes).size, 2);
    for (const code of codes) assert.match(code, /^T[0-3]$/);
    // A code taken by hand in the same space counts too, and so does a body code_config.
    await server.request('POST', '/v1/campaigns/Codes/vouchers', {
      body: { code: ['T0', 'T1', 'T2', 'T3'].find((c) => !codes.includes(c)) },
    });
    const full = await server.request('POST', '/v1/campaigns/Codes/vouchers', {
      body: { code_config: { pattern: 'T#', charset: '3210' } },
    });
    assert.equal(full.status, 400);
    assert.match(full.body.details, /allows 4 distinct code\(s\), 3 of them are already taken or reserved.*\(0\)\.$/);
  });
});

describe('gift and loyalty vouchers', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
  });
  after(() => server.close());

  it('gives a gift card its amount as balance, and a loyalty card its points', async () => {
    const gift = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'G',
        campaign_type: 'GIFT_VOUCHERS',
        voucher: { type: 'GIFT_VOUCHER', gift: { amount: 5000, effect: 'APPLY_TO_ITEMS' } },
      },
    });
    const card = await server.request('POST', '/v1/campaigns/G/vouchers', { body: {} });
    assert.deepEqual(
      card.body,
      voucherShape(card.body, gift.body, {
        type: 'GIFT_VOUCHER',
        discount: null,
        gift: { amount: 5000, subtracted_amount: 0, balance: 5000, effect: 'APPLY_TO_ITEMS' },
      }),
    );
    assertMatchesReference('POST', '/v1/campaigns/{campaignId}/vouchers', 200, withoutNulls(card.body));

    const loyalty = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'L',
        campaign_type: 'LOYALTY_PROGRAM',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 25 } },
      },
    });
    const member = await server.request('POST', '/v1/campaigns/L/vouchers', { body: {} });
    assert.deepEqual(
      member.body,
      voucherShape(member.body, loyalty.body, {
        type: 'LOYALTY_CARD',
        discount: null,
        loyalty_card: {
          points: 25,
          balance: 25,
          pending_points: 0,
          expired_points: 0,
          subtracted_points: 0,
        },
      }),
    );

    const referral = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'R',
        campaign_type: 'REFERRAL_PROGRAM',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: percentDiscount },
      },
    });
    const code = await server.request('POST', '/v1/campaigns/R/vouchers', { body: {} });
    assert.deepEqual(code.body, voucherShape(code.body, referral.body, { is_referral_code: true }));
  });
});

describe('GET, PUT and DELETE /v1/vouchers', () => {
  let server: TestServer;
  let campaign: { id: string; name: string; vouchers_count: number };
  const codes: string[] = [];
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    campaign = (await server.request('POST', '/v1/campaigns', { body: discountCampaign('List') })).body;
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Else') });
    const clock = server.deps.clock as ReturnType<typeof fixedClock>;
    for (const code of ['B-2', 'A-1', 'C-3']) {
      clock.advance(1000);
      codes.push((await server.request('POST', '/v1/campaigns/List/vouchers', { body: { code } })).body.code);
    }
    await server.request('POST', '/v1/campaigns/Else/vouchers', { body: { code: 'ELSE' } });
  });
  after(() => server.close());

  it("lists a campaign's vouchers by id or name, newest first, with total and paging", async () => {
    for (const filter of [`campaign_id=${campaign.id}`, 'campaign=List']) {
      const res = await server.request('GET', `/v1/vouchers?${filter}`);
      assert.equal(res.status, 200);
      assert.deepEqual([res.body.object, res.body.data_ref, res.body.total], ['list', 'vouchers', 3]);
      assert.deepEqual(
        res.body.vouchers.map((v: { code: string }) => v.code),
        ['C-3', 'A-1', 'B-2'],
      );
      assert.deepEqual(res.body.vouchers[0], (await server.request('GET', '/v1/vouchers/C-3')).body);
    }
    const page = await server.request('GET', '/v1/vouchers?campaign=List&limit=2&page=2&order=code');
    assert.deepEqual([page.body.total, page.body.vouchers.map((v: { code: string }) => v.code)], [3, ['C-3']]);
    const all = await server.request('GET', '/v1/vouchers?order=created_at');
    assert.deepEqual(
      [all.body.total, all.body.vouchers.map((v: { code: string }) => v.code)],
      [4, ['B-2', 'A-1', 'C-3', 'ELSE']],
    );
    const unknown = await server.request('GET', '/v1/vouchers?campaign=Nope');
    assert.deepEqual(unknown.body, { object: 'list', data_ref: 'vouchers', vouchers: [], total: 0 });
    // An order the list does not know is ignored, as the real API answers it: the default order.
    const unknownOrder = await server.request('GET', '/v1/vouchers?order=name');
    assert.deepEqual(
      [unknownOrder.status, unknownOrder.body],
      [200, (await server.request('GET', '/v1/vouchers')).body],
    );
  });

  it('answers 404 for an unknown code', async () => {
    const res = await server.request('GET', '/v1/vouchers/NOPE');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, notFoundBody(res, 'voucher', 'NOPE'));
  });

  it('updates a voucher', async () => {
    const before = (await server.request('GET', '/v1/vouchers/A-1')).body;
    (server.deps.clock as ReturnType<typeof fixedClock>).advance(60_000);
    const res = await server.request('PUT', '/v1/vouchers/A-1', {
      body: {
        active: false,
        additional_info: 'paused',
        metadata: { k: 'v' },
        redemption: { quantity: 5 },
        expiration_date: '2026-01-01',
        discount: { type: 'AMOUNT', amount_off: 100 },
      },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      ...before,
      active: false,
      additional_info: 'paused',
      metadata: { k: 'v' },
      redemption: { ...before.redemption, quantity: 5 },
      expiration_date: '2026-01-01T00:00:00.000Z',
      discount: { type: 'AMOUNT', amount_off: 100 },
      updated_at: '2025-03-01T10:01:03.000Z',
    });
  });

  it('never sets a quantity below what was redeemed', async () => {
    sqliteOf(server.deps).prepare("UPDATE vouchers SET redeemed_quantity = 3 WHERE code = 'B-2'").run();
    const res = await server.request('PUT', '/v1/vouchers/B-2', { body: { redemption: { quantity: 2 } } });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_voucher',
        message: 'Invalid voucher',
        details: 'redemption.quantity cannot be below the 3 redemption(s) already made',
      }),
    );
    assert.equal((await server.request('GET', '/v1/vouchers/B-2')).body.redemption.quantity, null);
    assert.equal(
      (await server.request('PUT', '/v1/vouchers/B-2', { body: { redemption: { quantity: 3 } } })).status,
      200,
    );
    const bad = await server.request('PUT', '/v1/vouchers/B-2', { body: { active: 'no' } });
    assert.deepEqual(
      bad.body,
      errorBody(bad, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: 'active must be a boolean',
      }),
    );
  });

  it('deletes a voucher (204) and its campaign counts one fewer', async () => {
    const res = await server.request('DELETE', '/v1/vouchers/C-3');
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal((await server.request('GET', '/v1/vouchers/C-3')).status, 404);
    assert.equal((await server.request('GET', '/v1/campaigns/List')).body.vouchers_count, 2);
    assert.equal((await server.request('GET', '/v1/vouchers?campaign=List')).body.total, 2);
    assert.equal((await server.request('DELETE', '/v1/vouchers/C-3')).status, 404);
  });
});
