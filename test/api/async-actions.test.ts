import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import type { JobRunner } from '../../src/jobs/runner.js';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertAsyncActionMatchesReference, assertMatchesReference } from '../support/openapi.js';
import { errorBody, notFoundBody, requestIdOf, startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2025-03-01T10:00:00.000Z';

describe('GET /v1/async-actions', () => {
  let server: TestServer;
  const jobs: Array<{ id: string; requestId: string; at: string }> = [];
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Jobs') });
    const clock = server.deps.clock as ReturnType<typeof fixedClock>;
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      const res = await server.request('POST', '/v1/campaigns/Jobs/vouchers?vouchers_count=2', { body: {} });
      jobs.push({ id: res.body.async_action_id, requestId: requestIdOf(res), at: clock.now().toISOString() });
    }
  });
  after(() => server.close());

  // No runner claims them: the first reads IN_PROGRESS from its first poll, as the reference
  // answers an accepted job; the later two really wait behind it, so they read ENQUEUED.
  const enqueued = (job: { id: string; requestId: string; at: string }) => ({
    id: job.id,
    type: 'CAMPAIGN.VOUCHERS_GENERATE',
    status: job === jobs[0] ? 'IN_PROGRESS' : 'ENQUEUED',
    created_at: job.at,
    updated_at: job.at,
    request_id: job.requestId,
    processing_time: 0,
    progress: 0,
    object: 'async_action',
  });

  it('lists newest first without results, with has_more', async () => {
    const res = await server.request('GET', '/v1/async-actions?limit=2');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      object: 'list',
      data_ref: 'async_actions',
      async_actions: [enqueued(jobs[2]!), enqueued(jobs[1]!)],
      has_more: true,
    });
    assertMatchesReference('GET', '/v1/async-actions', 200, res.body);
    const rest = await server.request('GET', `/v1/async-actions?end_date=${encodeURIComponent(jobs[1]!.at)}`);
    assert.deepEqual(rest.body, {
      object: 'list',
      data_ref: 'async_actions',
      async_actions: [enqueued(jobs[0]!)],
      has_more: false,
    });
  });

  it('gives one action, and 404 for an unknown id', async () => {
    const res = await server.request('GET', `/v1/async-actions/${jobs[0]!.id}`);
    assert.deepEqual(res.body, enqueued(jobs[0]!));
    assertAsyncActionMatchesReference(res.body);
    const missing = await server.request('GET', '/v1/async-actions/aa_nope');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, notFoundBody(missing, 'async_action', 'aa_nope'));
  });

  const refusals = [
    { query: 'limit=0', details: 'Query parameter limit must be between 1 and 100' },
    { query: 'limit=x', details: 'Query parameter limit must be an integer' },
    { query: 'end_date=yesterday', details: 'Query parameter end_date must be an ISO 8601 date-time' },
  ];
  for (const r of refusals) {
    it(`refuses ${r.query}`, async () => {
      const res = await server.request('GET', `/v1/async-actions?${r.query}`);
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.body,
        errorBody(res, { code: 400, key: 'invalid_query_params', message: 'Invalid query params', details: r.details }),
      );
    });
  }
});

describe('generation and import jobs through the runner', () => {
  let server: TestServer;
  let runner: JobRunner;
  before(async () => {
    server = await startTestServer();
    runner = testRunner(server.deps, { workers: 2 });
  });
  after(async () => {
    await runner.stop();
    await server.close();
  });

  it('generates exactly the requested number of unique codes, then DONE with SUCCESS', async () => {
    await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Gen', {}, { code_config: { pattern: 'G-####', charset: '0123456789ABCDEF' } }),
    });
    const res = await server.request('POST', '/v1/campaigns/Gen/vouchers?vouchers_count=3000', {
      body: { metadata: { batch: 7 } },
    });
    const job = await waitForJob(server, res.body.async_action_id);
    assert.deepEqual(job, {
      id: res.body.async_action_id,
      type: 'CAMPAIGN.VOUCHERS_GENERATE',
      status: 'DONE',
      operation_status: 'SUCCESS',
      created_at: job.created_at,
      updated_at: job.updated_at,
      request_id: requestIdOf(res),
      processing_time: job.processing_time,
      progress: 100,
      object: 'async_action',
      result: { message: 'Generated 3000 vouchers.', done_count: 3000 },
    });
    assert.ok(job.processing_time >= 0 && job.updated_at >= job.created_at);
    assertAsyncActionMatchesReference(job);
    const rows = sqliteOf(server.deps)
      .prepare(
        "SELECT v.code, v.metadata FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id WHERE c.name = 'Gen'",
      )
      .all() as Array<{ code: string; metadata: string }>;
    assert.equal(rows.length, 3000);
    assert.equal(new Set(rows.map((r) => r.code)).size, 3000);
    for (const row of rows) {
      assert.match(row.code, /^G-[0-9A-F]{4}$/);
      assert.equal(row.metadata, '{"batch":7}');
    }
    const campaign = await server.request('GET', '/v1/campaigns/Gen');
    assert.deepEqual([campaign.body.vouchers_count, campaign.body.vouchers_generation_status], [3000, 'DONE']);
  });

  it('imports good items and reports each bad one, in every accepted date form', async () => {
    const created = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Club',
        campaign_type: 'LOYALTY_PROGRAM',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
      },
    });
    await server.request('POST', '/v1/campaigns/Club/vouchers', { body: { code: 'TAKEN' } });
    const dates = [
      '2025-01-02',
      '2025-01-02T03',
      '2025-01-02T03:04',
      '2025-01-02T03:04:05',
      '2025-01-02T03:04:05Z',
      '2025-01-02T03:04:05.678Z',
    ];
    const good = dates.map((date, i) => ({ code: `M-${i}`, loyalty_card: { points: 100 + i }, start_date: date }));
    const items = [
      ...good,
      {
        code: 'M-FULL',
        type: 'LOYALTY_CARD',
        active: false,
        metadata: { a: 1 },
        category: 'Imported',
        additional_info: 'info',
        redemption: { quantity: 4 },
        start_date: '2025-06-01',
        expiration_date: '2026-01-01',
        validity_timeframe: { duration: 'PT2H', interval: 'P1W' },
        validity_day_of_week: [0, 6],
        loyalty_card: {
          points: 500,
          balance: 300,
          expired_points: 100,
          subtracted_points: 100,
          pending_points: 7,
          next_expiration_date: '2025-12-31',
          next_expiration_points: 50,
        },
      },
      { code: 'TAKEN', loyalty_card: { points: 1 } },
      { code: 'M-0', loyalty_card: { points: 1 } },
      { code: 'BAD-FIELD', loyalty_card: { points: 'many' } },
      { code: 'NO-CARD' },
      { code: 'WRONG-TYPE', type: 'GIFT_VOUCHER', gift: { amount: 1, balance: 1 } },
      { code: 'BAD-DATE', loyalty_card: { points: 1 }, start_date: '02/01/2025' },
      { code: 'NEGATIVE', loyalty_card: { points: 10, expired_points: 20 } },
      { code: 'TIMEFRAME', loyalty_card: { points: 1 }, validity_timeframe: { duration: 'PT1H', interval: 'P1D' } },
    ];
    const res = await server.request('POST', `/v1/campaigns/${created.body.id}/import`, { body: items });
    assert.equal(res.status, 202);
    assertMatchesReference('POST', '/v1/campaigns/{campaignId}/import', 202, res.body);
    const job = await waitForJob(server, res.body.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual(
      [job.type, job.status, job.operation_status, job.progress],
      ['CAMPAIGN.VOUCHERS_IMPORT', 'DONE', 'FAILED', 100],
    );
    assert.deepEqual(job.result, {
      message: '7 voucher(s) imported successfully, 8 failed.',
      failed: [
        { code: 'TAKEN', reason: 'Voucher with code TAKEN already exists' },
        { code: 'M-0', reason: 'Voucher with code M-0 already exists' },
        { code: 'BAD-FIELD', reason: 'loyalty_card.points must be a number' },
        { code: 'NO-CARD', reason: 'loyalty_card is a required field' },
        { code: 'WRONG-TYPE', reason: "type GIFT_VOUCHER does not match the campaign's LOYALTY_CARD vouchers" },
        { code: 'BAD-DATE', reason: 'start_date must be an ISO 8601 date or date-time' },
        {
          code: 'NEGATIVE',
          reason: 'loyalty_card.balance cannot be negative (points - expired_points - subtracted_points)',
        },
        { code: 'TIMEFRAME', reason: 'start_date is required when validity_timeframe is given' },
      ],
      done_count: 7,
      failed_count: 8,
      reports: [`/v1/async-actions/${job.id}/failures`],
    });
    const starts = await Promise.all(
      good.map(async (g) => (await server.request('GET', `/v1/vouchers/${g.code}`)).body.start_date),
    );
    assert.deepEqual(starts, [
      '2025-01-02T00:00:00.000Z',
      '2025-01-02T03:00:00.000Z',
      '2025-01-02T03:04:00.000Z',
      '2025-01-02T03:04:05.000Z',
      '2025-01-02T03:04:05.000Z',
      '2025-01-02T03:04:05.678Z',
    ]);
    const full = (await server.request('GET', '/v1/vouchers/M-FULL')).body;
    const asset = Buffer.from('M-FULL').toString('base64url');
    const category = {
      id: full.category_id,
      name: 'Imported',
      hierarchy: 0,
      object: 'category',
      created_at: full.categories[0]?.created_at,
    };
    assert.deepEqual(full, {
      id: full.id,
      code: 'M-FULL',
      campaign: 'Club',
      campaign_id: created.body.id,
      category: 'Imported',
      category_id: category.id,
      type: 'LOYALTY_CARD',
      discount: null,
      gift: null,
      loyalty_card: {
        points: 500,
        balance: 300,
        next_expiration_date: '2025-12-31',
        next_expiration_points: 50,
        pending_points: 7,
        expired_points: 100,
        subtracted_points: 100,
      },
      start_date: '2025-06-01T00:00:00.000Z',
      expiration_date: '2026-01-01T00:00:00.000Z',
      validity_timeframe: { duration: 'PT2H', interval: 'P1W' },
      validity_day_of_week: [0, 6],
      validity_hours: null,
      active: false,
      additional_info: 'info',
      metadata: { a: 1 },
      assets: {
        qr: { id: asset, url: `/v1/assets/qr/${asset}` },
        barcode: { id: asset, url: `/v1/assets/barcode/${asset}` },
      },
      is_referral_code: false,
      created_at: full.created_at,
      updated_at: null,
      referrer_id: null,
      object: 'voucher',
      publish: { object: 'list', count: 0, url: '/v1/vouchers/M-FULL/publications?page=1&limit=10' },
      redemption: {
        quantity: 4,
        redeemed_quantity: 0,
        redeemed_points: 0,
        object: 'list',
        url: '/v1/vouchers/M-FULL/redemptions?page=1&limit=10',
      },
      categories: [category],
      validation_rules_assignments: { object: 'list', data_ref: 'data', data: [], total: 0 },
    });
    assert.match(full.id, /^v_[0-9A-Za-z]{16}$/);
    assert.equal((await server.request('GET', '/v1/campaigns/Club')).body.vouchers_count, 8);
    const left = sqliteOf(server.deps)
      .prepare('SELECT count(*) AS n FROM async_action_items WHERE action_id = ?')
      .get(job.id) as { n: number };
    assert.equal(left.n, 0);
  });

  it('imports gift cards and discount vouchers, taking what an item leaves out from the campaign', async () => {
    await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Gifts',
        campaign_type: 'GIFT_VOUCHERS',
        voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000, effect: 'APPLY_TO_ORDER' } },
      },
    });
    const gifts = await server.request('POST', '/v1/campaigns/Gifts/import', {
      body: [{ code: 'GC-1', gift: { amount: 2000, balance: 1500, subtracted_amount: 500 } }, { code: 'GC-2' }],
    });
    const giftJob = await waitForJob(server, gifts.body.async_action_id);
    assert.deepEqual(giftJob.result, {
      message: '1 voucher(s) imported successfully, 1 failed.',
      failed: [{ code: 'GC-2', reason: 'gift is a required field' }],
      done_count: 1,
      failed_count: 1,
      reports: [`/v1/async-actions/${giftJob.id}/failures`],
    });
    assert.deepEqual((await server.request('GET', '/v1/vouchers/GC-1')).body.gift, {
      amount: 2000,
      subtracted_amount: 500,
      balance: 1500,
      effect: 'APPLY_TO_ORDER',
    });

    await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Disc', { expiration_date: '2030-01-01' }),
    });
    const discounts = await server.request('POST', '/v1/campaigns/Disc/import', {
      body: [{ code: 'D-1' }, { code: 'D-2', discount: { type: 'AMOUNT', amount_off: 300 } }],
    });
    const discountJob = await waitForJob(server, discounts.body.async_action_id);
    assert.deepEqual([discountJob.operation_status, discountJob.result.done_count], ['SUCCESS', 2]);
    const d1 = (await server.request('GET', '/v1/vouchers/D-1')).body;
    const d2 = (await server.request('GET', '/v1/vouchers/D-2')).body;
    assert.deepEqual(
      [d1.discount, d1.expiration_date, d2.discount],
      [{ type: 'PERCENT', percent_off: 10 }, '2030-01-01T00:00:00.000Z', { type: 'AMOUNT', amount_off: 300 }],
    );
  });

  const refusals: Array<{ name: string; body: unknown; key?: string; message?: string; details: string }> = [
    { name: 'an object', body: { code: 'X' }, details: 'The body must be an array of vouchers' },
    { name: 'an empty array', body: [], details: 'The body must hold at least one voucher' },
    { name: 'an array with a non-object', body: [{ code: 'A' }, 'B'], details: '[1] must be an object' },
    {
      name: 'items without a code',
      body: [{ code: 'A' }, { loyalty_card: { points: 1 } }, { code: '' }],
      key: 'invalid_voucher',
      message: 'Invalid voucher',
      details: "Found 2 voucher(s) without 'code' value",
    },
  ];
  for (const r of refusals) {
    it(`refuses an import body that is ${r.name}, before any job starts`, async () => {
      await server.request('POST', '/v1/campaigns', { body: discountCampaign('Refusals') });
      const before = (await server.request('GET', '/v1/async-actions?limit=100')).body.async_actions.length;
      const res = await server.request('POST', '/v1/campaigns/Refusals/import', { body: r.body });
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.body,
        errorBody(res, {
          code: 400,
          key: r.key ?? 'invalid_payload',
          message: r.message ?? 'Invalid payload',
          details: r.details,
        }),
      );
      assert.equal((await server.request('GET', '/v1/async-actions?limit=100')).body.async_actions.length, before);
    });
  }

  it('refuses an import into an unknown campaign (404) or a promotion (400)', async () => {
    const missing = await server.request('POST', '/v1/campaigns/nope/import', { body: [{ code: 'A' }] });
    assert.equal(missing.status, 404);
    await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'P',
        campaign_type: 'PROMOTION',
        promotion: { tiers: [{ name: 't', action: { discount: { type: 'PERCENT', percent_off: 5 } } }] },
      },
    });
    const promo = await server.request('POST', '/v1/campaigns/P/import', { body: [{ code: 'A' }] });
    assert.deepEqual([promo.status, promo.body.key], [400, 'invalid_campaign']);
  });
});
