import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { discountCampaign, loyaltyCampaign } from '../support/factories.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import { assertMatchesReference } from '../support/openapi.js';
import { expectError, invalidPayloadError, notFoundError, type ExpectedError } from '../support/error-bodies.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-05-01T08:00:00.000Z');
const at = () => clock.now().toISOString();

describe('reward assignments API', () => {
  let server: TestServer;
  let club: string;
  let other: string;
  const rewards: Record<string, string> = {};

  before(async () => {
    server = await startTestServer({ clock });
    const campaign = async (body: unknown) =>
      (await server.request('POST', '/v1/campaigns', { body })).body.id as string;
    club = await campaign(loyaltyCampaign('Club'));
    other = await campaign(loyaltyCampaign('Other club'));
    const discount = await campaign(discountCampaign('Ten off'));
    const reward = async (name: string, parameters: unknown) =>
      (await server.request('POST', '/v1/rewards', { body: { name, parameters } })).body.id as string;
    rewards.coupon = await reward('Coupon', { campaign: { id: discount } });
    rewards.points = await reward('Points', { campaign: { id: club, balance: 50 } });
    rewards.coin = await reward('Coin', { coin: { exchange_ratio: 0.5 } });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const refused = (send: () => Promise<TestResponse>, expected: ExpectedError) =>
    assertRefused(server, send, expectError(expected));
  const invalid = invalidPayloadError;
  const missing = notFoundError;
  const duplicate = (rewardId: string) => ({
    code: 409,
    key: 'duplicate_found',
    message: 'Duplicated resource found',
    details: `Duplicated reward_assignment exists with reward ${rewardId}`,
    resource_type: 'reward_assignment',
  });
  const assignment = (id: string, rewardId: string, campaignId: string, loyalty?: Record<string, unknown>) => ({
    id,
    reward_id: rewardId,
    related_object_id: campaignId,
    related_object_type: 'campaign',
    ...(loyalty ? { parameters: { loyalty } } : {}),
    created_at: at(),
    updated_at: null,
    object: 'reward_assignment',
  });

  let couponInClub: string;
  let coinInClub: string;

  it('assigns rewards to a program in bulk, answering each assignment', async () => {
    clock.advance(1000);
    const res = await server.request('POST', '/v1/loyalties/Club/rewards', {
      body: [
        { reward: rewards.coupon, parameters: { loyalty: { points: 100 } } },
        { reward: rewards.coin, validation_rules: [] },
      ],
    });
    assert.equal(res.status, 200);
    const [coupon, coin] = res.body;
    assert.match(coupon.id, /^rewa_[0-9A-Za-z]{16}$/);
    assert.deepEqual(res.body, [
      assignment(coupon.id, rewards.coupon as string, club, { points: 100 }),
      assignment(coin.id, rewards.coin as string, club),
    ]);
    for (const item of res.body) assertMatchesReference('POST', '/v1/loyalties/{campaignId}/rewards', 200, item);
    couponInClub = coupon.id;
    coinInClub = coin.id;
  });

  it('assigns one reward through the reward path, with auto_redeem', async () => {
    clock.advance(1000);
    const res = await server.request('POST', `/v1/rewards/${rewards.points}/assignments`, {
      body: { campaign: 'Other club', parameters: { loyalty: { points: 39, auto_redeem: false } } },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body,
      assignment(res.body.id, rewards.points as string, other, { points: 39, auto_redeem: false }),
    );
    assertMatchesReference('POST', '/v1/rewards/{rewardId}/assignments', 200, res.body);
  });

  it('refuses duplicates and bad assignments, creating none of the batch', async () => {
    const bulk =
      (body: unknown, program = 'Club') =>
      () =>
        server.request('POST', `/v1/loyalties/${program}/rewards`, { body });
    const points = { loyalty: { points: 5 } };
    await refused(
      bulk([
        { reward: rewards.points, parameters: points },
        { reward: rewards.coupon, parameters: points },
      ]),
      duplicate(rewards.coupon as string),
    );
    await refused(
      bulk([
        { reward: rewards.points, parameters: points },
        { reward: rewards.points, parameters: points },
      ]),
      duplicate(rewards.points as string),
    );
    await refused(
      () => server.request('POST', `/v1/rewards/${rewards.coin}/assignments`, { body: { campaign: club } }),
      duplicate(rewards.coin as string),
    );
    await refused(
      bulk([
        { reward: rewards.points, parameters: points },
        { reward: 'rew_none', parameters: points },
      ]),
      missing('reward', 'rew_none'),
    );
    await refused(bulk([{ reward: rewards.points }]), invalid('[0].parameters.loyalty is required'));
    await refused(
      bulk([{ reward: rewards.points, parameters: points }], 'Other club'),
      duplicate(rewards.points as string),
    );
    await refused(
      bulk([{ reward: rewards.coin, parameters: points }], 'Other club'),
      invalid('[0].parameters.loyalty.points: a COIN reward has no points cost'),
    );
    await refused(bulk([{ reward: rewards.points, parameters: points }], 'Ten off'), missing('campaign', 'Ten off'));
    await refused(bulk([{ reward: rewards.points, parameters: points }], 'Nowhere'), missing('campaign', 'Nowhere'));
    await refused(bulk([]), invalid('The body must hold at least one assignment'));
    await refused(bulk({ reward: rewards.points }), invalid('The body must be a JSON array of assignments'));
    await refused(
      bulk([{ parameters: { loyalty: { points: 0, auto_redeem: 'yes' } } }]),
      invalid(
        '[0].reward is required; [0].parameters.loyalty.points must be an integer of at least 1; [0].parameters.loyalty.auto_redeem must be a boolean',
      ),
    );
    await refused(
      () => server.request('POST', '/v1/rewards/rew_none/assignments', { body: { campaign: club } }),
      missing('reward', 'rew_none'),
    );
    await refused(
      () => server.request('POST', `/v1/rewards/${rewards.points}/assignments`, { body: {} }),
      invalid('campaign is required'),
    );
  });

  it('refuses a COIN assignment with more than one validation rule, and names a missing parameters.loyalty', async () => {
    const rule = async (name: string) =>
      (
        await server.request('POST', '/v1/validation-rules', {
          body: { name, rules: { '1': { name: 'order.amount', conditions: { $more_than: [100] } } } },
        })
      ).body.id as string;
    const rules = [await rule('Coin rule A'), await rule('Coin rule B')];
    const bulk = (body: unknown) => () => server.request('POST', '/v1/loyalties/Other club/rewards', { body });
    const viaReward = (body: unknown) => () =>
      server.request('POST', `/v1/rewards/${rewards.coin}/assignments`, { body });
    await refused(
      bulk([{ reward: rewards.coin, validation_rules: rules }]),
      invalid('[0].validation_rules must hold at most 1 validation rule id for a COIN reward'),
    );
    await refused(
      viaReward({ campaign: other, validation_rules: rules }),
      invalid('validation_rules must hold at most 1 validation rule id for a COIN reward'),
    );
    await refused(
      () => server.request('POST', `/v1/rewards/${rewards.coupon}/assignments`, { body: { campaign: other } }),
      invalid('parameters.loyalty is required'),
    );
    await refused(
      () =>
        server.request('POST', `/v1/rewards/${rewards.coupon}/assignments`, {
          body: { campaign: other, parameters: {} },
        }),
      invalid('parameters.loyalty is required'),
    );
    await refused(
      () =>
        server.request('POST', `/v1/rewards/${rewards.coupon}/assignments`, {
          body: { campaign: other, parameters: { loyalty: {} } },
        }),
      invalid('parameters.loyalty.points is required'),
    );
    await refused(
      bulk([{ reward: rewards.coupon, parameters: { loyalty: null } }]),
      invalid('[0].parameters.loyalty is required'),
    );
    // One rule is what a COIN assignment takes: the rule is assigned to it.
    clock.advance(1000);
    const one = await server.request('POST', `/v1/rewards/${rewards.coin}/assignments`, {
      body: { campaign: other, validation_rules: [rules[0]] },
    });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body, assignment(one.body.id, rewards.coin as string, other));
    const ruled = await server.request('GET', `/v1/validation-rules-assignments?related_object_id=${one.body.id}`);
    assert.deepEqual(
      ruled.body.data.map((a: { rule_id: string; related_object_type: string }) => [a.rule_id, a.related_object_type]),
      [[rules[0], 'reward_assignment']],
    );
    assert.equal(
      (await server.request('DELETE', `/v1/rewards/${rewards.coin}/assignments/${one.body.id}`)).status,
      204,
    );
  });

  it("lists a program's and a reward's assignments with total, and gets one by either path", async () => {
    const program = await server.request('GET', '/v1/loyalties/Club/rewards');
    assert.equal(program.status, 200);
    const coupon = assignment(couponInClub, rewards.coupon as string, club, { points: 100 });
    const coin = assignment(coinInClub, rewards.coin as string, club);
    const created = '2024-05-01T08:00:01.000Z';
    assert.deepEqual(program.body, {
      object: 'list',
      data_ref: 'data',
      data: [
        { ...coupon, created_at: created },
        { ...coin, created_at: created },
      ],
      total: 2,
    });
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/rewards', 200, program.body);
    const paged = await server.request('GET', `/v1/loyalties/${club}/rewards?limit=1&page=2`);
    assert.deepEqual(paged.body, {
      object: 'list',
      data_ref: 'data',
      data: [{ ...coin, created_at: created }],
      total: 2,
    });
    const filtered = await server.request('GET', `/v1/loyalties/Club/rewards?assignment_id=${coinInClub}`);
    assert.deepEqual(filtered.body, {
      object: 'list',
      data_ref: 'data',
      data: [{ ...coin, created_at: created }],
      total: 1,
    });

    const ofReward = await server.request('GET', `/v1/rewards/${rewards.coupon}/assignments`);
    assert.deepEqual(ofReward.body, {
      object: 'list',
      data_ref: 'data',
      data: [{ ...coupon, created_at: created }],
      total: 1,
    });
    assertMatchesReference('GET', '/v1/rewards/{rewardId}/assignments', 200, ofReward.body);

    const byProgram = await server.request('GET', `/v1/loyalties/Club/rewards/${couponInClub}`);
    assert.deepEqual(byProgram.body, { ...coupon, created_at: created });
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/rewards/{assignmentId}', 200, byProgram.body);
    const byReward = await server.request('GET', `/v1/rewards/${rewards.coupon}/assignments/${couponInClub}`);
    assert.deepEqual(byReward.body, byProgram.body);
    assertMatchesReference('GET', '/v1/rewards/{rewardId}/assignments/{assignmentId}', 200, byReward.body);
    await refused(
      () => server.request('GET', `/v1/loyalties/Other club/rewards/${couponInClub}`),
      missing('reward_assignment', couponInClub),
    );
    await refused(
      () => server.request('GET', `/v1/rewards/${rewards.coin}/assignments/${couponInClub}`),
      missing('reward_assignment', couponInClub),
    );
  });

  it('updates the points cost under both paths (Update Campaign Reward Assignment); unknown assignments are 404', async () => {
    clock.advance(1000);
    const res = await server.request('PUT', `/v1/loyalties/${club}/rewards/${couponInClub}`, {
      body: { parameters: { loyalty: { points: 35 } } },
    });
    assert.equal(res.status, 200);
    const updated = {
      ...assignment(couponInClub, rewards.coupon as string, club, { points: 35 }),
      created_at: '2024-05-01T08:00:01.000Z',
      updated_at: at(),
    };
    assert.deepEqual(res.body, updated);
    assertMatchesReference('PUT', '/v1/loyalties/{campaignId}/rewards/{assignmentId}', 200, res.body);
    clock.advance(1000);
    const viaReward = await server.request('PUT', `/v1/rewards/${rewards.coupon}/assignments/${couponInClub}`, {
      body: { parameters: { loyalty: { auto_redeem: true } } },
    });
    assert.deepEqual(viaReward.body, {
      ...updated,
      parameters: { loyalty: { points: 35, auto_redeem: true } },
      updated_at: at(),
    });
    assertMatchesReference('PUT', '/v1/rewards/{rewardId}/assignments/{assignmentId}', 200, viaReward.body);

    const put = (path: string, body: unknown) => () => server.request('PUT', path, { body });
    await refused(
      put('/v1/loyalties/Club/rewards/rewa_none', { parameters: { loyalty: { points: 1 } } }),
      missing('reward_assignment', 'rewa_none'),
    );
    await refused(
      put(`/v1/loyalties/Club/rewards/${coinInClub}`, { parameters: { loyalty: { points: 1 } } }),
      invalid('parameters.loyalty.points: a COIN reward has no points cost'),
    );
    await refused(
      put(`/v1/loyalties/Club/rewards/${couponInClub}`, { parameters: { loyalty: { points: -3 } } }),
      invalid('parameters.loyalty.points must be an integer of at least 1'),
    );
  });

  it('deletes an assignment under either path', async () => {
    const del = await server.request('DELETE', `/v1/loyalties/Club/rewards/${coinInClub}`);
    assert.equal(del.status, 204);
    await refused(
      () => server.request('DELETE', `/v1/rewards/${rewards.coin}/assignments/${coinInClub}`),
      missing('reward_assignment', coinInClub),
    );
    const again = await server.request('POST', `/v1/rewards/${rewards.coin}/assignments`, { body: { campaign: club } });
    const viaReward = await server.request('DELETE', `/v1/rewards/${rewards.coin}/assignments/${again.body.id}`);
    assert.equal(viaReward.status, 204);
    const list = await server.request('GET', '/v1/loyalties/Club/rewards');
    assert.deepEqual(
      list.body.data.map((a: { id: string }) => a.id),
      [couponInClub],
    );
  });
});
