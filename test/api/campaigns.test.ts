import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import type { JobRunner } from '../../src/jobs/runner.js';
import { ALPHANUMERIC } from '../../src/engine/codes/index.js';
import { discountCampaign, percentDiscount } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../support/server.js';
import { campaignShape as sharedCampaignShape } from '../support/campaign-shape.js';

const NOW = '2025-03-01T10:00:00.000Z';
const assignments = { object: 'list', data_ref: 'data', data: [], total: 0 };
const defaultCodeConfig = { length: 8, charset: ALPHANUMERIC, pattern: '########' };

/** The campaign body every create answers, with the given fields changed. */
const campaignShape = (id: string, fields: Record<string, unknown>) => sharedCampaignShape(id, NOW, fields);

describe('POST /v1/campaigns', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
  });
  after(() => server.close());

  it('creates a discount campaign with every field, a category, and its voucher template', async () => {
    const body = {
      name: 'Spring',
      description: 'Ten percent off',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      join_once: true,
      auto_join: true,
      start_date: '2025-04-01',
      expiration_date: '2025-06-30T23:59:59Z',
      validity_timeframe: { duration: 'PT1H', interval: 'P2D' },
      validity_day_of_week: [1, 2, 3],
      validity_hours: { daily: [{ start_time: '10:00', expiration_time: '14:00', days_of_week: [1, 2] }] },
      activity_duration_after_publishing: 'P24D',
      category: 'Seasonal',
      metadata: { region: 'EU' },
      voucher: {
        type: 'DISCOUNT_VOUCHER',
        discount: { type: 'AMOUNT', amount_off: 1500, effect: 'APPLY_TO_ORDER', aggregated_amount_limit: 5000 },
        code_config: { pattern: 'SPR-####', charset: '0123456789' },
        redemption: { quantity: 3 },
      },
    };
    const res = await server.request('POST', '/v1/campaigns', { body });
    assert.equal(res.status, 200);
    const category = { id: res.body.category_id, name: 'Seasonal', hierarchy: 0, object: 'category', created_at: NOW };
    assert.match(res.body.id, /^camp_[0-9A-Za-z]{16}$/);
    assert.match(res.body.category_id, /^cat_[0-9A-Za-z]{16}$/);
    assert.deepEqual(
      res.body,
      campaignShape(res.body.id, {
        name: 'Spring',
        description: 'Ten percent off',
        type: 'STATIC',
        join_once: true,
        auto_join: true,
        voucher: {
          type: 'DISCOUNT_VOUCHER',
          discount: { type: 'AMOUNT', amount_off: 1500, effect: 'APPLY_TO_ORDER', aggregated_amount_limit: 5000 },
          code_config: { length: 4, charset: '0123456789', pattern: 'SPR-####' },
          redemption: { quantity: 3 },
          is_referral_code: false,
        },
        start_date: '2025-04-01T00:00:00.000Z',
        expiration_date: '2025-06-30T23:59:59.000Z',
        validity_timeframe: { duration: 'PT1H', interval: 'P2D' },
        validity_day_of_week: [1, 2, 3],
        validity_hours: { daily: [{ start_time: '10:00', expiration_time: '14:00', days_of_week: [1, 2] }] },
        activity_duration_after_publishing: 'P24D',
        metadata: { region: 'EU' },
        category: 'Seasonal',
        category_id: category.id,
        categories: [category],
      }),
    );
  });

  it('creates gift, loyalty and referral campaigns', async () => {
    const gift = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Gift cards',
        campaign_type: 'GIFT_VOUCHERS',
        voucher: { type: 'GIFT_VOUCHER', gift: { amount: 10000, effect: 'APPLY_TO_ORDER' } },
      },
    });
    assert.equal(gift.status, 200);
    assert.deepEqual(
      gift.body,
      campaignShape(gift.body.id, {
        name: 'Gift cards',
        campaign_type: 'GIFT_VOUCHERS',
        voucher: {
          type: 'GIFT_VOUCHER',
          gift: { amount: 10000, effect: 'APPLY_TO_ORDER' },
          code_config: defaultCodeConfig,
          redemption: { quantity: null },
          is_referral_code: false,
        },
      }),
    );

    const loyaltyCard = {
      points: 100,
      expiration_rules: { period_type: 'MONTH', period_value: 3, rounding_type: 'END_OF_MONTH', rounding_value: 0 },
    };
    const loyalty = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Club',
        campaign_type: 'LOYALTY_PROGRAM',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: loyaltyCard },
      },
    });
    assert.equal(loyalty.status, 200);
    assert.deepEqual(loyalty.body.voucher, {
      type: 'LOYALTY_CARD',
      loyalty_card: loyaltyCard,
      code_config: defaultCodeConfig,
      redemption: { quantity: null },
      is_referral_code: false,
    });

    const referral = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Friends',
        campaign_type: 'REFERRAL_PROGRAM',
        referral_program: { conversion_event_type: 'redemption' },
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'FIXED', fixed_amount: 500 } },
      },
    });
    assert.equal(referral.status, 200);
    assert.deepEqual(
      referral.body,
      campaignShape(referral.body.id, {
        name: 'Friends',
        campaign_type: 'REFERRAL_PROGRAM',
        referral_program: { conversion_event_type: 'redemption' },
        voucher: {
          type: 'DISCOUNT_VOUCHER',
          discount: { type: 'FIXED', fixed_amount: 500 },
          code_config: defaultCodeConfig,
          redemption: { quantity: null },
          is_referral_code: true,
        },
      }),
    );
  });

  it('creates a promotion with its tiers', async () => {
    const res = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Cart promotion',
        campaign_type: 'PROMOTION',
        promotion: {
          tiers: [
            {
              name: 'Over 100',
              banner: '5 off',
              action: { discount: { type: 'AMOUNT', amount_off: 500 } },
              metadata: { level: 1 },
            },
            {
              name: 'Over 200',
              action: { discount: { type: 'PERCENT', percent_off: 10, amount_limit: 3000 } },
              hierarchy: 5,
              active: false,
              start_date: '2025-05-01',
            },
          ],
        },
      },
    });
    assert.equal(res.status, 200);
    const [first, second] = res.body.promotion.tiers;
    const tier = (t: { id: string }, fields: Record<string, unknown>) => ({
      id: t.id,
      created_at: NOW,
      banner: null,
      metadata: {},
      promotion_id: res.body.id,
      campaign: { id: res.body.id, start_date: null, expiration_date: null, active: true, object: 'campaign' },
      campaign_id: res.body.id,
      active: true,
      summary: { redemptions: { total_redeemed: 0 }, orders: { total_amount: 0, total_discount_amount: 0 } },
      object: 'promotion_tier',
      validation_rule_assignments: assignments,
      categories: [],
      ...fields,
    });
    assert.match(first.id, /^promo_/);
    assert.deepEqual(
      res.body,
      campaignShape(res.body.id, {
        name: 'Cart promotion',
        campaign_type: 'PROMOTION',
        promotion: {
          object: 'list',
          data_ref: 'tiers',
          tiers: [
            tier(first, {
              name: 'Over 100',
              banner: '5 off',
              action: { discount: { type: 'AMOUNT', amount_off: 500 } },
              metadata: { level: 1 },
              hierarchy: 1,
            }),
            tier(second, {
              name: 'Over 200',
              action: { discount: { type: 'PERCENT', percent_off: 10, amount_limit: 3000 } },
              hierarchy: 5,
              active: false,
              start_date: '2025-05-01T00:00:00.000Z',
            }),
          ],
          total: 2,
          has_more: false,
        },
      }),
    );
  });

  it('generates one voucher at once with vouchers_count 1', async () => {
    const res = await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('One', { vouchers_count: 1 }, { code_config: { prefix: 'ONE-', length: 6 } }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.vouchers_count, 1);
    assert.equal(res.body.vouchers_generation_status, 'DONE');
    const list = await server.request('GET', '/v1/vouchers?campaign=One');
    assert.equal(list.body.total, 1);
    assert.match(list.body.vouchers[0].code, /^ONE-[0-9A-Za-z]{6}$/);
  });

  it('starts a generation job for more, which a runner completes', async () => {
    const res = await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Many', { vouchers_count: 30 }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.vouchers_count, res.body.vouchers_generation_status], [0, 'IN_PROGRESS']);
    const jobs = await server.request('GET', '/v1/async-actions?limit=1');
    assert.deepEqual(
      [jobs.body.async_actions[0].type, jobs.body.async_actions[0].status],
      ['CAMPAIGN.VOUCHERS_GENERATE', 'IN_PROGRESS'],
    );
    const runner: JobRunner = testRunner(server.deps);
    try {
      const job = await waitForJob(server, jobs.body.async_actions[0].id);
      assert.deepEqual(job.result, { message: 'Generated 30 vouchers.', done_count: 30 });
    } finally {
      await runner.stop();
    }
    const done = await server.request('GET', '/v1/campaigns/Many');
    assert.deepEqual([done.body.vouchers_count, done.body.vouchers_generation_status], [30, 'DONE']);
  });

  it('refuses a taken name with 409', async () => {
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Taken') });
    const res = await server.request('POST', '/v1/campaigns', { body: discountCampaign('Taken') });
    assert.equal(res.status, 409);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 409,
        key: 'duplicate_found',
        message: 'Duplicated resource found',
        details: 'Duplicated campaign exists with name Taken',
        resource_type: 'campaign',
      }),
    );
  });

  const refusals: Array<{ name: string; body: unknown; key?: string; message?: string; details: string }> = [
    { name: 'not an object', body: [1], details: 'The body must be a JSON object' },
    { name: 'no name', body: {}, details: 'name is a required field' },
    {
      name: 'nothing to tell its type by',
      body: { name: 'a' },
      details: 'campaign_type is a required field when neither voucher.type nor promotion is given',
    },
    {
      name: 'an unknown campaign type',
      body: { name: 'a', campaign_type: 'COUPONS' },
      details:
        'campaign_type must be one of the following values: DISCOUNT_COUPONS, GIFT_VOUCHERS, LOYALTY_PROGRAM, PROMOTION, REFERRAL_PROGRAM',
    },
    {
      name: 'no voucher template',
      body: { name: 'a', campaign_type: 'DISCOUNT_COUPONS' },
      details: 'voucher is a required field',
    },
    {
      name: 'a voucher type that does not fit',
      body: {
        name: 'a',
        campaign_type: 'GIFT_VOUCHERS',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: percentDiscount },
      },
      details: 'voucher.type must be GIFT_VOUCHER in a GIFT_VOUCHERS campaign',
    },
    {
      name: 'a discount voucher without discount',
      body: { name: 'a', campaign_type: 'DISCOUNT_COUPONS', voucher: { type: 'DISCOUNT_VOUCHER' } },
      details: 'voucher.discount is a required field',
    },
    {
      name: 'a gift on a discount voucher',
      body: discountCampaign('a', {}, { gift: { amount: 5 } }),
      details: 'voucher.gift is not allowed for a DISCOUNT_VOUCHER',
    },
    {
      name: 'a percent discount without percent_off',
      body: discountCampaign('a', {}, { discount: { type: 'PERCENT' } }),
      details: 'voucher.discount.percent_off is a required field',
    },
    {
      name: 'an unknown discount type',
      body: discountCampaign('a', {}, { discount: { type: 'BOGO' } }),
      details: 'voucher.discount.type must be one of the following values: AMOUNT, PERCENT, FIXED, UNIT',
    },
    {
      name: 'an unknown discount field',
      body: discountCampaign('a', {}, { discount: { type: 'AMOUNT', amount_off: 1, amount_of: 2 } }),
      details: 'voucher.discount field has unspecified keys: amount_of',
    },
    {
      name: 'a UNIT discount with units but no unit_type',
      body: discountCampaign(
        'a',
        {},
        { discount: { type: 'UNIT', units: [{ unit_off: 1, effect: 'ADD_NEW_ITEMS' }] } },
      ),
      details: 'voucher.discount.units[0].unit_type is a required field',
    },
    {
      name: 'a date that is not ISO 8601',
      body: discountCampaign('a', { start_date: '01/02/2025' }),
      details: 'start_date must be an ISO 8601 date or date-time',
    },
    {
      name: 'an expiration before the start',
      body: discountCampaign('a', { start_date: '2025-02-01', expiration_date: '2025-01-01' }),
      details: 'expiration_date must not be before start_date',
    },
    {
      name: 'a timeframe without a start',
      body: discountCampaign('a', { validity_timeframe: { duration: 'PT1H', interval: 'P1D' } }),
      details: 'start_date is required when validity_timeframe is given',
    },
    {
      name: 'a day of week out of range',
      body: discountCampaign('a', { validity_day_of_week: [7] }),
      details: 'validity_day_of_week[0] must be less than or equal to 6',
    },
    {
      name: 'a bad hour',
      body: discountCampaign('a', {
        validity_hours: { daily: [{ start_time: '25:00', expiration_time: '10:00', days_of_week: [1] }] },
      }),
      details: 'validity_hours.daily[0].start_time must be HH:mm',
    },
    {
      name: 'a string vouchers_count',
      body: discountCampaign('a', { vouchers_count: '5' }),
      details: 'vouchers_count must be a number',
    },
    {
      name: 'an empty charset',
      body: discountCampaign('a', {}, { code_config: { charset: '' } }),
      details: 'voucher.code_config.charset must be at least 1 characters',
    },
    {
      name: 'more codes than half the pattern allows',
      body: discountCampaign('a', { vouchers_count: 6 }, { code_config: { pattern: 'AB-#', charset: '0123456789' } }),
      key: 'invalid_code_config',
      message: 'Invalid code config',
      details:
        'Cannot generate 6 code(s): the code config allows 10 distinct code(s), 0 of them are already taken or reserved, and a request may use at most half of what is left (5).',
    },
  ];
  for (const refusal of refusals) {
    it(`refuses ${refusal.name} with 400`, async () => {
      const res = await server.request('POST', '/v1/campaigns', { body: refusal.body });
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.body,
        errorBody(res, {
          code: 400,
          key: refusal.key ?? 'invalid_payload',
          message: refusal.message ?? 'Invalid payload',
          details: refusal.details,
        }),
      );
      if (typeof refusal.body === 'object' && refusal.body !== null && 'name' in refusal.body) {
        assert.equal(
          (await server.request('GET', `/v1/campaigns/${(refusal.body as { name: string }).name}`)).status,
          404,
        );
      }
    });
  }

  it('refuses an unknown category_id with 404', async () => {
    const res = await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Cat', { category_id: 'cat_nope' }),
    });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, notFoundBody(res, 'category', 'cat_nope'));
  });
});

describe('GET, PUT and DELETE /v1/campaigns', () => {
  let server: TestServer;
  let runner: JobRunner;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    runner = testRunner(server.deps);
  });
  after(async () => {
    await runner.stop();
    await server.close();
  });

  it('finds a campaign by id or by name; an unknown one is 404', async () => {
    const created = await server.request('POST', '/v1/campaigns', { body: discountCampaign('Find me') });
    for (const key of [created.body.id, 'Find%20me']) {
      const res = await server.request('GET', `/v1/campaigns/${key}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, created.body);
    }
    const missing = await server.request('GET', '/v1/campaigns/nope');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, notFoundBody(missing, 'campaign', 'nope'));
  });

  it('lists campaigns with total, paging, type filter and order', async () => {
    const fresh = await startTestServer({ clock: fixedClock(NOW) });
    try {
      const clock = fresh.deps.clock as ReturnType<typeof fixedClock>;
      const ids: string[] = [];
      for (const [i, type] of ['DISCOUNT_COUPONS', 'GIFT_VOUCHERS', 'DISCOUNT_COUPONS'].entries()) {
        clock.advance(1000);
        const body =
          type === 'GIFT_VOUCHERS'
            ? { name: `c${i}`, campaign_type: type, voucher: { type: 'GIFT_VOUCHER', gift: { amount: 100 } } }
            : discountCampaign(`c${i}`);
        ids.push((await fresh.request('POST', '/v1/campaigns', { body })).body.id);
      }
      const all = await fresh.request('GET', '/v1/campaigns');
      assert.deepEqual([all.body.object, all.body.data_ref, all.body.total], ['list', 'campaigns', 3]);
      assert.deepEqual(
        all.body.campaigns.map((c: { id: string }) => c.id),
        [...ids].reverse(),
      );
      const page2 = await fresh.request('GET', '/v1/campaigns?limit=2&page=2&order=created_at');
      assert.deepEqual(
        page2.body.campaigns.map((c: { id: string }) => c.id),
        [ids[2]],
      );
      assert.equal(page2.body.total, 3);
      const gifts = await fresh.request('GET', '/v1/campaigns?campaign_type=GIFT_VOUCHERS');
      assert.deepEqual([gifts.body.total, gifts.body.campaigns[0].id], [1, ids[1]]);
      const bad = await fresh.request('GET', '/v1/campaigns?limit=101');
      assert.equal(bad.status, 400);
      assert.deepEqual(
        bad.body,
        errorBody(bad, {
          code: 400,
          key: 'invalid_query_params',
          message: 'Invalid query params',
          details: 'Query parameter limit must be between 1 and 100',
        }),
      );
      const badType = await fresh.request('GET', '/v1/campaigns?campaign_type=NOPE');
      assert.equal(badType.status, 400);
    } finally {
      await fresh.close();
    }
  });

  it('updates a campaign and carries validity and discount changes to its vouchers', async () => {
    const created = await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Update me', { vouchers_count: 1 }),
    });
    const res = await server.request('PUT', '/v1/campaigns/Update%20me', {
      body: {
        description: 'now with dates',
        start_date: '2025-05-01T00:00:00Z',
        expiration_date: '2025-05-31T00:00:00Z',
        metadata: { x: 1 },
        category: 'Updated',
        discount: { type: 'AMOUNT', amount_off: 700 },
        join_once: true,
      },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      ...created.body,
      description: 'now with dates',
      start_date: '2025-05-01T00:00:00.000Z',
      expiration_date: '2025-05-31T00:00:00.000Z',
      metadata: { x: 1 },
      join_once: true,
      category: 'Updated',
      category_id: res.body.category_id,
      categories: [{ id: res.body.category_id, name: 'Updated', hierarchy: 0, object: 'category', created_at: NOW }],
      voucher: { ...created.body.voucher, discount: { type: 'AMOUNT', amount_off: 700 } },
      updated_at: NOW,
    });
    const jobs = await server.request('GET', '/v1/async-actions?limit=1');
    const job = await waitForJob(server, jobs.body.async_actions[0].id);
    assert.deepEqual(
      [job.type, job.result],
      ['CAMPAIGN.VOUCHERS_UPDATE', { message: 'Updated 1 voucher(s) of campaign Update me.', done_count: 1 }],
    );
    const voucher = (await server.request('GET', '/v1/vouchers?campaign=Update%20me')).body.vouchers[0];
    assert.deepEqual(
      [voucher.start_date, voucher.expiration_date, voucher.discount],
      ['2025-05-01T00:00:00.000Z', '2025-05-31T00:00:00.000Z', { type: 'AMOUNT', amount_off: 700 }],
    );
  });

  it('leaves cleared optional fields out of the answer, as the real API does', async () => {
    const created = await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Clear me', {
        description: 'dated',
        start_date: '2025-04-01T00:00:00Z',
        expiration_date: '2025-06-30T00:00:00Z',
      }),
    });
    assert.deepEqual(
      [created.body.description, created.body.start_date, created.body.expiration_date],
      ['dated', '2025-04-01T00:00:00.000Z', '2025-06-30T00:00:00.000Z'],
    );
    const res = await server.request('PUT', `/v1/campaigns/${created.body.id}`, {
      body: { description: null, start_date: null, expiration_date: null },
    });
    assert.equal(res.status, 200, res.text);
    const { description: _d, start_date: _s, expiration_date: _e, ...rest } = created.body;
    assert.deepEqual(res.body, { ...rest, updated_at: NOW });
    assert.deepEqual((await server.request('GET', `/v1/campaigns/${created.body.id}`)).body, res.body);
  });

  it('refuses a discount for a gift campaign and an expiration before the start', async () => {
    await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Gifts',
        campaign_type: 'GIFT_VOUCHERS',
        voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1 } },
        start_date: '2025-05-01',
      },
    });
    const res = await server.request('PUT', '/v1/campaigns/Gifts', { body: { discount: percentDiscount } });
    assert.equal(res.status, 400);
    assert.equal(res.body.key, 'invalid_campaign');
    const dates = await server.request('PUT', '/v1/campaigns/Gifts', { body: { expiration_date: '2025-04-01' } });
    assert.equal(dates.status, 400);
    assert.deepEqual(
      dates.body,
      errorBody(dates, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: 'expiration_date must not be before start_date',
      }),
    );
    const missing = await server.request('PUT', '/v1/campaigns/nope', { body: {} });
    assert.equal(missing.status, 404);
  });

  it('deletes a campaign: 202, gone at once, name free again, vouchers removed by the job', async () => {
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Doomed', { vouchers_count: 1 }) });
    const code = (await server.request('GET', '/v1/vouchers?campaign=Doomed')).body.vouchers[0].code;
    const res = await server.request('DELETE', '/v1/campaigns/Doomed');
    assert.equal(res.status, 202);
    assert.deepEqual(Object.keys(res.body), ['async_action_id']);
    assert.equal((await server.request('GET', '/v1/campaigns/Doomed')).status, 404);
    assert.equal((await server.request('POST', '/v1/campaigns', { body: discountCampaign('Doomed') })).status, 200);
    const job = await waitForJob(server, res.body.async_action_id);
    assert.deepEqual(
      [job.type, job.status, job.operation_status, job.result],
      [
        'CAMPAIGN.VOUCHERS_DELETE',
        'DONE',
        'SUCCESS',
        { message: 'Deleted campaign Doomed and 1 voucher(s).', done_count: 1 },
      ],
    );
    assert.equal((await server.request('GET', `/v1/vouchers/${code}`)).status, 404);
    const again = await server.request('DELETE', '/v1/campaigns/nope');
    assert.equal(again.status, 404);
  });
});
