import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALPHANUMERIC } from '../../src/engine/codes/index.js';
import { fixedClock } from '../../src/lib/clock.js';
import { findProgram } from '../../src/modules/loyalty/programs/programs.service.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import { discountCampaign, loyaltyCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { errorBody, notFoundBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { campaignShape } from '../support/campaign-shape.js';

const NOW = '2025-03-01T10:00:00.000Z';
const LATER = '2025-03-02T08:00:00.000Z';
const defaultCodeConfig = { length: 8, charset: ALPHANUMERIC, pattern: '########' };

const tiersExpiration = {
  qualification_type: 'POINTS_IN_PERIOD',
  qualification_period: 'QUARTER',
  start_date: { type: 'IMMEDIATE' },
  expiration_date: {
    type: 'END_OF_NEXT_PERIOD',
    extend: 'P1M',
    rounding: { type: 'MONTH', strategy: 'END', unit: 'MONTH', value: 2 },
  },
};
const expirationRules = { period_type: 'MONTH', period_value: 6, rounding_type: 'END_OF_MONTH' };

/** A loyalty program as every answer shows it, with the given fields changed. */
const programShape = (id: string, fields: Record<string, unknown>) =>
  campaignShape(id, NOW, {
    campaign_type: 'LOYALTY_PROGRAM',
    voucher: {
      type: 'LOYALTY_CARD',
      loyalty_card: { points: 0 },
      code_config: defaultCodeConfig,
      redemption: { quantity: null },
      is_referral_code: false,
    },
    join_once: true,
    ...fields,
  });

describe('loyalty programs (/v1/loyalties)', () => {
  let server: TestServer;
  const clock = fixedClock(NOW);
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  it('POST /v1/loyalties creates a program: campaign_type and voucher.type default, tiers expiration and card rules kept as sent', async () => {
    const body = {
      name: 'Stars',
      description: 'Collect stars',
      metadata: { tier: 'base' },
      loyalty_tiers_expiration: tiersExpiration,
      voucher: {
        loyalty_card: { points: 50, expiration_rules: expirationRules },
        code_config: { pattern: 'ST-####', charset: '0123456789' },
      },
    };
    const res = await server.request('POST', '/v1/loyalties', { body });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^camp_[0-9A-Za-z]{16}$/);
    const expected = programShape(res.body.id, {
      name: 'Stars',
      description: 'Collect stars',
      metadata: { tier: 'base' },
      voucher: {
        type: 'LOYALTY_CARD',
        loyalty_card: { points: 50, expiration_rules: expirationRules },
        code_config: { length: 4, charset: '0123456789', pattern: 'ST-####' },
        redemption: { quantity: null },
        is_referral_code: false,
      },
      loyalty_tiers_expiration: tiersExpiration,
    });
    assert.deepEqual(res.body, expected);
    assertMatchesReference('POST', '/v1/loyalties', 200, withoutNulls(res.body));
    const got = await server.request('GET', '/v1/loyalties/Stars');
    assert.deepEqual({ status: got.status, body: got.body }, { status: 200, body: expected });
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}', 200, withoutNulls(got.body));
    // The same campaign through /v1/campaigns.
    assert.deepEqual((await server.request('GET', `/v1/campaigns/${res.body.id}`)).body, expected);
  });

  it('findProgram gives other loyalty parts the card template, its expiration rules and the tiers expiration', async () => {
    const program = await findProgram(server.deps, 'Stars');
    assert.deepEqual(
      {
        id: program.id,
        name: program.name,
        loyalty_card: program.loyalty_card,
        expiration_rules: program.expiration_rules,
        tiers: program.loyalty_tiers_expiration,
      },
      {
        id: program.campaign.id,
        name: 'Stars',
        loyalty_card: { points: 50, expiration_rules: expirationRules },
        expiration_rules: expirationRules,
        tiers: tiersExpiration,
      },
    );
    const plain = await server.request('POST', '/v1/campaigns', { body: loyaltyCampaign('Plain') });
    const found = await findProgram({ db: server.deps.db }, plain.body.id);
    assert.deepEqual([found.expiration_rules, found.loyalty_tiers_expiration], [null, null]);
    await server.request('DELETE', `/v1/loyalties/${plain.body.id}`);
  });

  it('POST /v1/campaigns with LOYALTY_PROGRAM is the same program, loyalty_tiers_expiration included', async () => {
    const res = await server.request('POST', '/v1/campaigns', {
      body: loyaltyCampaign('Moons', { loyalty_tiers_expiration: { qualification_type: 'BALANCE' } }),
    });
    assert.equal(res.status, 200);
    const expected = programShape(res.body.id, {
      name: 'Moons',
      loyalty_tiers_expiration: { qualification_type: 'BALANCE' },
    });
    assert.deepEqual(res.body, expected);
    assert.deepEqual((await server.request('GET', `/v1/loyalties/${res.body.id}`)).body, expected);
  });

  it('refuses loyalty_tiers_expiration outside a program, a bad one, and another campaign_type, writing nothing', async () => {
    await assertRefused(
      server,
      () =>
        server.request('POST', '/v1/campaigns', {
          body: discountCampaign('Nope', { loyalty_tiers_expiration: { qualification_type: 'BALANCE' } }),
        }),
      (res) =>
        errorBody(res, {
          code: 400,
          key: 'invalid_payload',
          message: 'Invalid payload',
          details: 'loyalty_tiers_expiration is allowed only in a LOYALTY_PROGRAM campaign',
        }),
    );
    await assertRefused(
      server,
      () =>
        server.request('POST', '/v1/loyalties', {
          body: {
            name: 'Bad',
            campaign_type: 'DISCOUNT_COUPONS',
            loyalty_tiers_expiration: { qualification_type: 'SOMETIMES' },
            voucher: { loyalty_card: { points: 0 } },
          },
        }),
      (res) =>
        errorBody(res, {
          code: 400,
          key: 'invalid_payload',
          message: 'Invalid payload',
          details:
            'campaign_type must be one of the following values: LOYALTY_PROGRAM; loyalty_tiers_expiration.qualification_type must be one of the following values: BALANCE, POINTS_IN_PERIOD',
        }),
    );
    await assertRefused(
      server,
      () =>
        server.request('POST', '/v1/loyalties', { body: { name: 'Stars', voucher: { loyalty_card: { points: 0 } } } }),
      (res) =>
        errorBody(res, {
          code: 409,
          key: 'duplicate_found',
          message: 'Duplicated resource found',
          details: 'Duplicated campaign exists with name Stars',
          resource_type: 'campaign',
        }),
    );
  });

  it('GET /v1/loyalties lists programs only, newest first, with total, order and paging', async () => {
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Coupons') });
    clock.set(LATER);
    await server.request('POST', '/v1/loyalties', { body: { name: 'Suns', voucher: { loyalty_card: { points: 0 } } } });
    clock.set(NOW);
    const res = await server.request('GET', '/v1/loyalties?limit=2');
    assert.equal(res.status, 200);
    assertMatchesReference('GET', '/v1/loyalties', 200, withoutNulls(res.body));
    const names = (r: TestResponse) => (r.body.campaigns as Array<{ name: string }>).map((c) => c.name);
    assert.deepEqual(
      { ...res.body, campaigns: names(res) },
      { object: 'list', data_ref: 'campaigns', campaigns: ['Suns', 'Moons'], total: 3 },
    );
    assert.deepEqual(names(await server.request('GET', '/v1/loyalties?order=created_at&page=1&limit=10')), [
      'Stars',
      'Moons',
      'Suns',
    ]);
    assert.deepEqual(names(await server.request('GET', '/v1/loyalties?limit=2&page=2&expand=category')), ['Stars']);
    const bad = await server.request('GET', '/v1/loyalties?limit=0&order=name');
    assert.deepEqual(
      bad.body,
      errorBody(bad, {
        code: 400,
        key: 'invalid_query_params',
        message: 'Invalid query params',
        details: 'Query parameter limit must be between 1 and 100',
      }),
    );
  });

  it('PUT /v1/loyalties/{id or name} changes the program as PUT /v1/campaigns does', async () => {
    clock.set(LATER);
    const res = await server.request('PUT', '/v1/loyalties/Moons', {
      body: {
        description: 'Moon points',
        loyalty_tiers_expiration: tiersExpiration,
        metadata: { v: 2 },
        auto_join: true,
      },
    });
    clock.set(NOW);
    assert.equal(res.status, 200);
    const expected = programShape(res.body.id, {
      name: 'Moons',
      description: 'Moon points',
      metadata: { v: 2 },
      auto_join: true,
      loyalty_tiers_expiration: tiersExpiration,
      updated_at: LATER,
    });
    assert.deepEqual(res.body, expected);
    assertMatchesReference('PUT', '/v1/loyalties/{campaignId}', 200, withoutNulls(res.body));
    const cleared = await server.request('PUT', `/v1/loyalties/${res.body.id}`, {
      body: { loyalty_tiers_expiration: null },
    });
    const { loyalty_tiers_expiration: _dropped, ...withoutTiers } = expected as typeof expected & {
      loyalty_tiers_expiration?: unknown;
    };
    assert.deepEqual(cleared.body, { ...withoutTiers, updated_at: NOW });
  });

  it('answers 404 for a campaign that is not a loyalty program, and for an unknown one, writing nothing', async () => {
    for (const [method, ref] of [
      ['GET', 'Coupons'],
      ['PUT', 'Coupons'],
      ['DELETE', 'Coupons'],
      ['GET', 'camp_unknown'],
    ] as const) {
      await assertRefused(
        server,
        () => server.request(method, `/v1/loyalties/${ref}`, method === 'PUT' ? { body: { description: 'x' } } : {}),
        (res) => notFoundBody(res, 'campaign', ref),
      );
    }
  });

  it('DELETE /v1/loyalties/{id} answers the job (202, as DELETE /v1/campaigns), and the program and its cards go', async () => {
    const created = await server.request('POST', '/v1/loyalties', {
      body: { name: 'Gone', vouchers_count: 1, voucher: { loyalty_card: { points: 5 } } },
    });
    const card = (await server.request('GET', `/v1/vouchers?campaign=Gone`)).body.vouchers[0].code as string;
    const res = await server.request('DELETE', '/v1/loyalties/Gone?force=true');
    assert.equal(res.status, 202);
    assert.deepEqual(Object.keys(res.body), ['async_action_id']);
    assertMatchesReference('DELETE', '/v1/loyalties/{campaignId}', 200, res.body);
    const runner = testRunner(server.deps);
    try {
      const job = await waitForJob(server, res.body.async_action_id);
      assert.deepEqual(
        [job.type, job.status, job.result.message],
        ['CAMPAIGN.VOUCHERS_DELETE', 'DONE', 'Deleted campaign Gone and 1 voucher(s).'],
      );
    } finally {
      await runner.stop();
    }
    const gone = await server.request('GET', `/v1/loyalties/${created.body.id}`);
    assert.deepEqual(gone.body, notFoundBody(gone, 'campaign', created.body.id));
    const cardGone = await server.request('GET', `/v1/loyalties/members/${card}`);
    assert.deepEqual(cardGone.body, notFoundBody(cardGone, 'voucher', card));
  });
});
