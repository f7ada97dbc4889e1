import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { discountCampaign, loyaltyCampaign } from '../support/factories.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import { assertMatchesReference, rewardsWithObjectMetadata } from '../support/openapi.js';
import {
  expectError,
  invalidPayloadError,
  invalidQueryError,
  notFoundError,
  type ExpectedError,
} from '../support/error-bodies.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-06-01T08:00:00.000Z');
const at = () => clock.now().toISOString();

describe('loyalty tiers API', () => {
  let server: TestServer;
  let club: string;
  let couponAssignment: string;
  let coinAssignment: string;
  let coupon: Record<string, unknown>;
  let coin: Record<string, unknown>;

  before(async () => {
    server = await startTestServer({ clock });
    club = (await server.request('POST', '/v1/campaigns', { body: loyaltyCampaign('Club') })).body.id;
    await server.request('POST', '/v1/campaigns', { body: loyaltyCampaign('Empty club') });
    const discount = (await server.request('POST', '/v1/campaigns', { body: discountCampaign('Ten off') })).body.id;
    coupon = (
      await server.request('POST', '/v1/rewards', {
        body: { name: 'Coupon', parameters: { campaign: { id: discount } } },
      })
    ).body;
    coin = (
      await server.request('POST', '/v1/rewards', {
        body: { name: 'Coin', parameters: { coin: { exchange_ratio: 1 } } },
      })
    ).body;
    const assigned = await server.request('POST', '/v1/loyalties/Club/rewards', {
      body: [{ reward: coupon.id, parameters: { loyalty: { points: 100 } } }, { reward: coin.id }],
    });
    [couponAssignment, coinAssignment] = assigned.body.map((a: { id: string }) => a.id);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const refused = (send: () => Promise<TestResponse>, expected: ExpectedError) =>
    assertRefused(server, send, expectError(expected));
  const invalid = invalidPayloadError;
  const missing = notFoundError;

  const tier = (
    id: string,
    name: string,
    points: { from: number; to?: number },
    extra: Record<string, unknown> = {},
  ) => ({
    id,
    name,
    campaign_id: club,
    metadata: {},
    created_at: at(),
    updated_at: null,
    earning_rules: {},
    rewards: {},
    config: { points },
    points,
    object: 'loyalty_tier',
    ...extra,
  });

  let tiers: Array<Record<string, unknown>>;

  it('creates tiers in bulk, answering each whole', async () => {
    clock.advance(1000);
    const res = await server.request('POST', '/v1/loyalties/Club/tiers', {
      body: [
        { name: 'Bronze', points: { from: 0, to: 99 } },
        {
          name: 'Silver',
          points: { from: 100, to: 499 },
          earning_rules: { ern_abc: { type: 'MULTIPLY', multiplier: 1.5 } },
          rewards: { [couponAssignment]: { type: 'CUSTOM', points: 80 } },
          metadata: { rank: 2 },
        },
        { name: 'Gold', points: { from: 500 }, earning_rules: { ern_abc: { type: 'CUSTOM', points: 50 } } },
      ],
    });
    assert.equal(res.status, 200);
    const [bronze, silver, gold] = res.body;
    assert.match(bronze.id, /^ltr_[0-9A-Za-z]{16}$/);
    tiers = [
      tier(bronze.id, 'Bronze', { from: 0, to: 99 }),
      tier(
        silver.id,
        'Silver',
        { from: 100, to: 499 },
        {
          metadata: { rank: 2 },
          earning_rules: { ern_abc: { type: 'MULTIPLY', multiplier: 1.5 } },
          rewards: { [couponAssignment]: { type: 'CUSTOM', points: 80 } },
        },
      ),
      tier(gold.id, 'Gold', { from: 500 }, { earning_rules: { ern_abc: { type: 'CUSTOM', points: 50 } } }),
    ];
    assert.deepEqual(res.body, tiers);
    assertMatchesReference('POST', '/v1/loyalties/{campaignId}/tiers', 200, res.body);
  });

  it('refuses overlapping ranges and bad tiers, creating none of the batch', async () => {
    const post =
      (body: unknown, program = 'Club') =>
      () =>
        server.request('POST', `/v1/loyalties/${program}/tiers`, { body });
    await refused(
      post([
        { name: 'Platinum', points: { from: 2000 } },
        { name: 'Tin', points: { from: 50, to: 60 } },
      ]),
      invalid('points of tier Tin (50..60) overlap tier Bronze (0..99)'),
    );
    await refused(
      post(
        [
          { name: 'A', points: { from: 0, to: 10 } },
          { name: 'B', points: { from: 10, to: 20 } },
        ],
        'Empty club',
      ),
      invalid('points of tier B (10..20) overlap tier A (0..10)'),
    );
    await refused(
      post(
        [
          { name: 'A', points: { from: 0 } },
          { name: 'B', points: { from: 1000, to: 2000 } },
        ],
        'Empty club',
      ),
      invalid('points of tier B (1000..2000) overlap tier A (0..)'),
    );
    await refused(
      post([{ name: 'X', points: { from: 10 }, rewards: { rewa_other: { type: 'CUSTOM', points: 1 } } }], 'Empty club'),
      invalid('rewards: rewa_other is not a reward assignment of this program'),
    );
    await refused(
      post([
        {
          name: '',
          points: { from: -1, to: 1.5 },
          earning_rules: { ern_1: { type: 'DOUBLE' } },
          rewards: { rewa_1: { type: 'MULTIPLY', multiplier: 0 } },
          metadata: 'x',
        },
      ]),
      invalid(
        '[0].name must not be empty; [0].points.from must be an integer of at least 0; [0].points.to must be an integer of at least 0; [0].earning_rules.ern_1 type must be one of: MULTIPLY, CUSTOM; [0].rewards.rewa_1 multiplier must be a number above 0; [0].metadata must be an object',
      ),
    );
    await refused(post([{ points: { to: 5 } }]), invalid('[0].name is required'));
    await refused(post([{ name: 'Z', points: { from: 9, to: 3 } }]), invalid('points.to must be at least points.from'));
    await refused(post([{ name: 'Z', points: { from: 9 } }], 'Ten off'), missing('campaign', 'Ten off'));
    await refused(post({ name: 'Z' }), invalid('The body must be a JSON array of tiers'));
  });

  it("gets and lists a program's tiers with total, in either order", async () => {
    const one = await server.request('GET', `/v1/loyalties/${club}/tiers/${tiers[1]?.id}`);
    assert.deepEqual(one.body, { ...tiers[1], created_at: '2024-06-01T08:00:01.000Z' });
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/tiers/{loyaltyTierId}', 200, one.body);
    const created = tiers.map((t) => ({ ...t, created_at: '2024-06-01T08:00:01.000Z' }));
    const list = await server.request('GET', '/v1/loyalties/Club/tiers');
    assert.deepEqual(list.body, { object: 'list', data_ref: 'data', data: created, total: 3 });
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/tiers', 200, list.body);
    const desc = await server.request('GET', '/v1/loyalties/Club/tiers?order=-created_at&limit=2');
    assert.deepEqual(desc.body, { object: 'list', data_ref: 'data', data: [created[2], created[1]], total: 3 });
    await refused(
      () => server.request('GET', '/v1/loyalties/Club/tiers/ltr_none'),
      missing('loyalty_tier', 'ltr_none'),
    );
    await refused(
      () => server.request('GET', `/v1/loyalties/Empty club/tiers/${tiers[0]?.id}`),
      missing('loyalty_tier', tiers[0]?.id as string),
    );
    const bad = await server.request('GET', '/v1/loyalties/Club/tiers?order=name&limit=101');
    assert.deepEqual(bad.body, expectError(invalidQueryError('Query parameter limit must be between 1 and 100'))(bad));
  });

  it("lists a tier's rewards: its mapping at the tier's cost, else every assignment of the program (List Loyalty Tier Rewards)", async () => {
    const assignment = (id: string, rewardId: unknown, points?: number) => ({
      id,
      reward_id: rewardId,
      related_object_id: club,
      related_object_type: 'campaign',
      ...(points === undefined ? {} : { parameters: { loyalty: { points } } }),
      created_at: '2024-06-01T08:00:00.000Z',
      updated_at: null,
      object: 'reward_assignment',
    });
    const silver = await server.request('GET', `/v1/loyalties/Club/tiers/${tiers[1]?.id}/rewards`);
    assert.deepEqual(silver.body, {
      object: 'list',
      data_ref: 'data',
      data: [
        { reward: coupon, assignment: assignment(couponAssignment, coupon.id, 80), object: 'loyalty_tier_reward' },
      ],
      total: 1,
    });
    const path = '/v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/rewards';
    assertMatchesReference('GET', path, 200, rewardsWithObjectMetadata(silver.body));
    const bronze = await server.request('GET', `/v1/loyalties/${club}/tiers/${tiers[0]?.id}/rewards`);
    assert.deepEqual(bronze.body, {
      object: 'list',
      data_ref: 'data',
      data: [
        { reward: coupon, assignment: assignment(couponAssignment, coupon.id, 100), object: 'loyalty_tier_reward' },
        { reward: coin, assignment: assignment(coinAssignment, coin.id), object: 'loyalty_tier_reward' },
      ],
      total: 2,
    });
    assertMatchesReference('GET', path, 200, rewardsWithObjectMetadata(bronze.body));
  });

  it("updates and deletes a tier (promo's own PUT and DELETE), keeping ranges apart", async () => {
    clock.advance(1000);
    const gold = tiers[2] as { id: string };
    const res = await server.request('PUT', `/v1/loyalties/Club/tiers/${gold.id}`, {
      body: { name: 'Golden', points: { from: 600, to: 5000 }, metadata: { top: true } },
    });
    assert.equal(res.status, 200);
    const updated = {
      ...tiers[2],
      name: 'Golden',
      points: { from: 600, to: 5000 },
      config: { points: { from: 600, to: 5000 } },
      metadata: { top: true },
      created_at: '2024-06-01T08:00:01.000Z',
      updated_at: at(),
    };
    assert.deepEqual(res.body, updated);
    assert.deepEqual((await server.request('GET', `/v1/loyalties/Club/tiers/${gold.id}`)).body, updated);
    const put = (body: unknown) => () => server.request('PUT', `/v1/loyalties/Club/tiers/${gold.id}`, { body });
    await refused(
      put({ points: { from: 400 } }),
      invalid('points of tier Golden (400..) overlap tier Silver (100..499)'),
    );
    await refused(
      put({ rewards: { rewa_none: { type: 'CUSTOM', points: 1 } } }),
      invalid('rewards: rewa_none is not a reward assignment of this program'),
    );
    await refused(
      () => server.request('PUT', '/v1/loyalties/Club/tiers/ltr_none', { body: {} }),
      missing('loyalty_tier', 'ltr_none'),
    );

    const del = await server.request('DELETE', `/v1/loyalties/Club/tiers/${gold.id}`);
    assert.equal(del.status, 204);
    await refused(
      () => server.request('DELETE', `/v1/loyalties/Club/tiers/${gold.id}`),
      missing('loyalty_tier', gold.id),
    );
    assert.equal((await server.request('GET', '/v1/loyalties/Club/tiers')).body.total, 2);
  });
});
