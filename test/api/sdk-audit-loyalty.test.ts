import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertMatchesReference, rewardsWithObjectMetadata } from '../support/openapi.js';
import { beyondSdkTypes, serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

const NOW = '2025-05-01T09:00:00.000Z';
/**
 * An answer as these tests read it: the ids and codes they pass on, and the rest, which each test
 * checks whole against what the API answers and against the reference.
 */
interface Resource {
  id: string;
  code: string;
  [field: string]: unknown;
}

/** An error as the SDK rejects with it: the API's error body. */
interface ApiError {
  code: number;
  key: string;
  message: string;
  details: string;
  resource_type?: string;
}

/** A list answer: its total and its items. */
interface Page<T> {
  total: number;
  data: T[];
  [field: string]: unknown;
}

/** A card transaction with the fields the tests read. */
interface Transaction {
  type: string;
  reason: string;
  details: { balance: { points: number } };
}

/** A points-expiration bucket with the field the tests read. */
interface Bucket {
  bucket: { total_points: number };
}

/**
 * The @voucherify/sdk loyalty methods no other test called (earning rules, points, card
 * transactions and expiration, tiers): each through the SDK, unchanged, its whole answer
 * checked against what the API answers for the same resource and against the reference.
 */
describe('@voucherify/sdk: loyalty earning rules, points and tiers', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  let program: Resource;
  let card: Resource;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    sdk = serverSideClient(server);
    program = (await sdk.loyalties.create(
      beyondSdkTypes({
        name: 'SDK Stars',
        campaign_type: 'LOYALTY_PROGRAM',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
      }),
    )) as unknown as Resource;
    card = (await sdk.loyalties.createMember(program.id, {
      customer: { source_id: 'sdk-star-ann' },
    })) as unknown as Resource;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });
  const get = async (path: string): Promise<Resource> => (await server.request('GET', path)).body;

  it('creates, reads, lists, updates, disables, enables and deletes an earning rule; a paid order earns by it', async () => {
    const [rule] = (await sdk.loyalties.createEarningRule(
      program.id,
      beyondSdkTypes([
        { event: 'order.paid', loyalty: { type: 'FIXED', points: 10 }, source: { banner: 'Paid orders' } },
      ]),
    )) as unknown as [Resource];
    const expected = {
      id: rule?.id,
      created_at: NOW,
      updated_at: null,
      loyalty: { type: 'FIXED', points: 10 },
      event: 'order.paid',
      validation_rule_id: null,
      source: { banner: 'Paid orders', object_id: program.id, object_type: 'campaign' },
      active: true,
      object: 'earning_rule',
      metadata: {},
    };
    assert.match(rule?.id, /^ern_/);
    assert.deepEqual(rule, expected);
    assertMatchesReference('POST', '/v1/loyalties/{campaignId}/earning-rules', 200, [rule] as unknown as Resource);

    const one = await sdk.loyalties.getEarningRule(program.id, rule?.id);
    assert.deepEqual(one, rule);
    assert.deepEqual(one, await get(`/v1/loyalties/${program.id}/earning-rules/${rule?.id}`));
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/earning-rules/{earningRuleId}', 200, one as Resource);

    const list = await sdk.loyalties.listEarningRules(program.id, { limit: 10 });
    assert.deepEqual(list, { object: 'list', data_ref: 'data', data: [rule], total: 1 });
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/earning-rules', 200, list);

    const updated = await sdk.loyalties.updateEarningRule(
      program.id,
      beyondSdkTypes({
        id: rule?.id,
        loyalty: { type: 'FIXED', points: 20 },
      }),
    );
    assert.deepEqual(updated, { ...rule, loyalty: { type: 'FIXED', points: 20 }, updated_at: NOW });
    assertMatchesReference('PUT', '/v1/loyalties/{campaignId}/earning-rules/{earningRuleId}', 200, updated as Resource);

    const disabled = await sdk.loyalties.disableEarningRule(program.id, rule?.id);
    assert.deepEqual(disabled, { ...(updated as object), active: false });
    assertMatchesReference('POST', '/v1/loyalties/{campaignId}/earning-rules/{earningRuleId}/disable', 200, disabled);
    await sdk.orders.create(
      beyondSdkTypes({
        source_id: 'sdk-star-o1',
        amount: 3000,
        status: 'PAID',
        customer: { source_id: 'sdk-star-ann' },
      }),
    );
    assert.equal((await sdk.loyalties.getMember(program.id, card.code)).loyalty_card?.balance, 0);

    const enabled = await sdk.loyalties.enableEarningRule(program.id, rule?.id);
    assert.deepEqual(enabled, { ...(updated as object), active: true });
    assertMatchesReference('POST', '/v1/loyalties/{campaignId}/earning-rules/{earningRuleId}/enable', 200, enabled);
    await sdk.orders.create(
      beyondSdkTypes({
        source_id: 'sdk-star-o2',
        amount: 3000,
        status: 'PAID',
        customer: { source_id: 'sdk-star-ann' },
      }),
    );
    assert.equal((await sdk.loyalties.getMember(program.id, card.code)).loyalty_card?.balance, 20);

    assert.equal(await sdk.loyalties.deleteEarningRule(program.id, rule?.id), '');
    await assert.rejects(sdk.loyalties.getEarningRule(program.id, rule?.id), (error: ApiError) => {
      assert.deepEqual(
        [error.code, error.key, error.details],
        [404, 'not_found', `Cannot find earning_rule with id ${rule?.id}`],
      );
      return true;
    });
  });

  it("adds points, lists the card's transactions with and without the program and its expiration buckets (addPoints, listCardTransactions, getPointsExpiration)", async () => {
    const before = (await sdk.loyalties.getMember(program.id, card.code)).loyalty_card?.balance as number;
    const added = await sdk.loyalties.addPoints(
      program.id,
      card.code,
      beyondSdkTypes({
        points: 100,
        reason: 'Welcome',
        source_id: 'sdk-welcome',
      }),
    );
    assert.deepEqual(added, {
      points: 100,
      total: before + 100,
      balance: before + 100,
      type: 'loyalty_card',
      object: 'balance',
      related_object: { type: 'voucher', id: card.id },
      operation_type: 'MANUAL',
    });
    assertMatchesReference('POST', '/v1/loyalties/{campaignId}/members/{memberId}/balance', 200, added);

    const inProgram = (await sdk.loyalties.listCardTransactions(
      card.code,
      program.id,
      beyondSdkTypes({ limit: 10 }),
    )) as unknown as Page<Transaction>;
    assert.deepEqual(inProgram, await get(`/v1/loyalties/${program.id}/members/${card.code}/transactions?limit=10`));
    assert.deepEqual(inProgram.data[0]?.reason, 'Welcome');
    assert.deepEqual(
      inProgram.data.map((t) => [t.type, t.details.balance.points]),
      [
        ['POINTS_ADDITION', 100],
        ['POINTS_ACCRUAL', 20],
      ],
    );
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/members/{memberId}/transactions', 200, inProgram);
    const anyProgram = await sdk.loyalties.listCardTransactions(
      card.code,
      null as unknown as string,
      beyondSdkTypes({ limit: 10 }),
    );
    assert.deepEqual(anyProgram, inProgram);

    const buckets = (await sdk.loyalties.getPointsExpiration(
      program.id,
      card.code,
      beyondSdkTypes({ limit: 10 }),
    )) as unknown as Page<Bucket>;
    assert.deepEqual(buckets, await get(`/v1/loyalties/${program.id}/members/${card.code}/points-expiration?limit=10`));
    assert.deepEqual(
      [buckets.total, buckets.data.map((b) => b.bucket.total_points).reduce((a: number, b: number) => a + b, 0)],
      [buckets.data.length, before + 100],
    );
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/members/{memberId}/points-expiration', 200, buckets);
  });

  it("creates tiers, reads and lists them, lists a tier's rewards and a member's tiers (createTiers, getTier, listTiers, listLoyaltyTierRewards, listMemberLoyaltyTiers)", async () => {
    const coupons = (await sdk.campaigns.create(
      beyondSdkTypes({
        name: 'SDK coupons',
        campaign_type: 'DISCOUNT_COUPONS',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
      }),
    )) as unknown as Resource;
    const reward = (await sdk.rewards.create(
      beyondSdkTypes({
        name: 'SDK coupon',
        parameters: { campaign: { id: coupons.id } },
      }),
    )) as unknown as Resource;
    const [assignment] = (await sdk.loyalties.createRewardAssignments(
      program.id,
      beyondSdkTypes([{ reward: reward.id, parameters: { loyalty: { points: 50 } } }]),
    )) as unknown as [Resource];
    const tiers = (await sdk.loyalties.createTiers(
      program.id,
      beyondSdkTypes([
        { name: 'Silver', points: { from: 1, to: 99 } },
        {
          name: 'Gold',
          points: { from: 100, to: 10000 },
          rewards: { [assignment?.id]: { type: 'CUSTOM', points: 40 } },
          metadata: { rank: 2 },
        },
      ]),
    )) as unknown as Resource[];
    const [silver, gold] = tiers;
    assert.deepEqual(gold, {
      id: gold?.id,
      name: 'Gold',
      campaign_id: program.id,
      metadata: { rank: 2 },
      created_at: NOW,
      updated_at: null,
      earning_rules: {},
      rewards: { [assignment?.id]: { type: 'CUSTOM', points: 40 } },
      config: { points: { from: 100, to: 10000 } },
      points: { from: 100, to: 10000 },
      object: 'loyalty_tier',
    });
    assertMatchesReference('POST', '/v1/loyalties/{campaignId}/tiers', 200, tiers as unknown as Resource);

    const one = await sdk.loyalties.getTier(program.id, gold?.id);
    assert.deepEqual(one, gold);
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/tiers/{loyaltyTierId}', 200, one as Resource);
    const list = await sdk.loyalties.listTiers(program.id, beyondSdkTypes({ limit: 10 }));
    assert.deepEqual(list, { object: 'list', data_ref: 'data', data: [silver, gold], total: 2 });
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/tiers', 200, list);

    const rewards = await sdk.loyalties.listLoyaltyTierRewards(program.id, gold?.id);
    assert.deepEqual(rewards, {
      object: 'list',
      data_ref: 'data',
      data: [
        {
          reward: await sdk.rewards.get(reward.id),
          assignment: { ...assignment, parameters: { loyalty: { points: 40 } } },
          object: 'loyalty_tier_reward',
        },
      ],
      total: 1,
    });
    assert.deepEqual(rewards, await get(`/v1/loyalties/${program.id}/tiers/${gold?.id}/rewards`));
    assertMatchesReference(
      'GET',
      '/v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/rewards',
      200,
      rewardsWithObjectMetadata(rewards as unknown as { data: { reward: { metadata: unknown } }[] }),
    );

    // Members move between tiers at their next change of points (docs/api.md "Loyalty: rewards and tiers").
    await sdk.loyalties.addPoints(program.id, card.code, beyondSdkTypes({ points: 1 }));
    const mine = (await sdk.loyalties.listMemberLoyaltyTiers(card.code)) as unknown as Page<Resource>;
    assert.deepEqual(mine, await get(`/v1/loyalties/members/${card.code}/tiers`));
    assert.deepEqual([mine.total, mine.data.map((t: Resource) => t.id)], [1, [gold?.id]]);
    assertMatchesReference('GET', '/v1/loyalties/members/{memberId}/tiers', 200, mine);
  });

  it("reads the reward an assignment of the program gives (loyalties.getRewardDetails); another program's assignment is 404", async () => {
    const coupons = (await sdk.campaigns.create(
      beyondSdkTypes({
        name: 'SDK details coupons',
        campaign_type: 'DISCOUNT_COUPONS',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 300 } },
      }),
    )) as unknown as Resource;
    const reward = (await sdk.rewards.create(
      beyondSdkTypes({
        name: 'SDK details coupon',
        parameters: { campaign: { id: coupons.id } },
        metadata: { shelf: 'A' },
      }),
    )) as unknown as Resource;
    const [assignment] = (await sdk.loyalties.createRewardAssignments(
      program.id,
      beyondSdkTypes([{ reward: reward.id, parameters: { loyalty: { points: 30 } } }]),
    )) as unknown as [Resource];
    const details = await sdk.loyalties.getRewardDetails(program.id, assignment?.id);
    assert.deepEqual(details, await sdk.rewards.get(reward.id));
    assert.deepEqual(details, {
      id: reward.id,
      name: 'SDK details coupon',
      type: 'CAMPAIGN',
      parameters: { campaign: { id: coupons.id, type: 'DISCOUNT_COUPONS' } },
      stock: null,
      redeemed: null,
      attributes: {},
      created_at: NOW,
      updated_at: null,
      metadata: { shelf: 'A' },
      object: 'reward',
    });
    assertMatchesReference(
      'GET',
      '/v1/loyalties/{campaignId}/reward-assignments/{assignmentId}/reward',
      200,
      details as Resource,
    );
    assert.deepEqual(await sdk.loyalties.getRewardDetails('SDK Stars', assignment?.id), details);

    const other = (await sdk.loyalties.create(
      beyondSdkTypes({
        name: 'SDK Moons',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
      }),
    )) as unknown as Resource;
    for (const [campaign, id] of [
      [other.id, assignment?.id],
      [program.id, 'rewa_none'],
    ] satisfies Array<[string, string]>) {
      await assert.rejects(sdk.loyalties.getRewardDetails(campaign, id), (error: ApiError) => {
        assert.deepEqual(
          [error.code, error.key, error.message, error.details, error.resource_type],
          [404, 'not_found', 'Resource not found', `Cannot find reward_assignment with id ${id}`, 'reward_assignment'],
        );
        return true;
      });
    }
    await assert.rejects(sdk.loyalties.getRewardDetails('camp_none', assignment?.id), (error: ApiError) => {
      assert.deepEqual(
        [error.code, error.key, error.details],
        [404, 'not_found', 'Cannot find campaign with id camp_none'],
      );
      return true;
    });
  });

  it('lists the rewards a member can get, all or only those the card affords (loyalties.listMemberRewards)', async () => {
    const suns = (await sdk.loyalties.create(
      beyondSdkTypes({
        name: 'SDK Suns',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 40 } },
      }),
    )) as unknown as Resource;
    const rich = (await sdk.loyalties.createMember(suns.id, {
      customer: { source_id: 'sdk-sun-ann' },
    })) as unknown as Resource;
    const coupons = (await sdk.campaigns.create(
      beyondSdkTypes({
        name: 'SDK sun coupons',
        campaign_type: 'DISCOUNT_COUPONS',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
      }),
    )) as unknown as Resource;
    const cheap = (await sdk.rewards.create(
      beyondSdkTypes({
        name: 'SDK cheap',
        parameters: { campaign: { id: coupons.id } },
      }),
    )) as unknown as Resource;
    const dear = (await sdk.rewards.create(
      beyondSdkTypes({
        name: 'SDK dear',
        parameters: { campaign: { id: coupons.id } },
      }),
    )) as unknown as Resource;
    const coin = (await sdk.rewards.create(
      beyondSdkTypes({
        name: 'SDK coin',
        parameters: { coin: { exchange_ratio: 1 } },
      }),
    )) as unknown as Resource;
    const assignments = (await sdk.loyalties.createRewardAssignments(
      suns.id,
      beyondSdkTypes([
        { reward: cheap.id, parameters: { loyalty: { points: 30 } } },
        { reward: dear.id, parameters: { loyalty: { points: 60 } } },
        { reward: coin.id },
      ]),
    )) as unknown as Resource[];
    const item = (reward: Resource, assignment: Resource | undefined) => ({
      reward,
      assignment,
      object: 'loyalty_reward',
    });
    const all = await sdk.loyalties.listMemberRewards(rich.code);
    assert.deepEqual(all, {
      object: 'list',
      data_ref: 'data',
      data: [item(cheap, assignments[0]), item(dear, assignments[1]), item(coin, assignments[2])],
      total: 3,
    });
    assertMatchesReference('GET', '/v1/loyalties/members/{memberId}/rewards', 200, all);
    const affordable = await sdk.loyalties.listMemberRewards(rich.code, { affordable_only: true });
    assert.deepEqual(affordable, {
      object: 'list',
      data_ref: 'data',
      data: [item(cheap, assignments[0]), item(coin, assignments[2])],
      total: 2,
    });

    await sdk.loyalties.addOrRemoveCardBalance(rich.code, beyondSdkTypes({ points: -40 }));
    assert.deepEqual(await sdk.loyalties.listMemberRewards(rich.code, { affordable_only: true }), {
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
    });
    assert.equal(
      ((await sdk.loyalties.listMemberRewards(rich.code, { affordable_only: false })) as unknown as Resource).total,
      3,
    );
    await assert.rejects(sdk.loyalties.listMemberRewards('SUN-NONE'), (error: ApiError) => {
      assert.deepEqual(
        [error.code, error.key, error.details],
        [404, 'not_found', 'Cannot find voucher with id SUN-NONE'],
      );
      return true;
    });
    const bad = await server.request('GET', `/v1/loyalties/members/${rich.code}/rewards?affordable_only=yes`);
    assert.deepEqual(
      [bad.status, bad.body.key, bad.body.details],
      [400, 'invalid_query_params', 'Query parameter affordable_only must be one of: true, false'],
    );
  });

  it("lists a tier's earning rules: its program's (loyalties.listLoyaltyTierEarningRules)", async () => {
    const [rule] = (await sdk.loyalties.createEarningRule(
      program.id,
      beyondSdkTypes([
        { event: 'order.paid', loyalty: { type: 'FIXED', points: 5 }, source: { banner: 'Five per order' } },
      ]),
    )) as unknown as [Resource];
    const gold = (
      (await sdk.loyalties.listTiers(program.id, beyondSdkTypes({}))) as unknown as Page<Resource>
    ).data.find((t: Resource) => t.name === 'Gold')!;
    const list = await sdk.loyalties.listLoyaltyTierEarningRules(
      program.id,
      gold.id,
      beyondSdkTypes({ limit: 10, page: 1 }),
    );
    assert.deepEqual(list, { object: 'list', data_ref: 'data', data: [rule], total: 1 });
    assert.deepEqual(list, await sdk.loyalties.listEarningRules(program.id, { limit: 10, page: 1 }));
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/earning-rules', 200, list);
    assert.deepEqual(
      await sdk.loyalties.listLoyaltyTierEarningRules(program.id, gold.id, beyondSdkTypes({ page: 2 })),
      {
        object: 'list',
        data_ref: 'data',
        data: [],
        total: 1,
      },
    );
    await assert.rejects(
      sdk.loyalties.listLoyaltyTierEarningRules(program.id, 'ltr_none', beyondSdkTypes({})),
      (error: ApiError) => {
        assert.deepEqual(
          [error.code, error.key, error.details],
          [404, 'not_found', 'Cannot find loyalty_tier with id ltr_none'],
        );
        return true;
      },
    );
  });

  it("lists a member's activity: its holder's events of the program, paged by cursor (loyalties.listMemberActivity)", async () => {
    const holder = card.holder_id as string;
    const all = (await sdk.loyalties.listMemberActivity(
      program.id,
      card.code,
      beyondSdkTypes({ limit: 100 }),
    )) as unknown as Page<Resource>;
    assert.deepEqual(all, await get(`/v1/customers/${holder}/activity?campaign_id=${program.id}&limit=100`));
    const types = new Set(all.data.map((e: Resource) => e.type));
    assert.deepEqual(
      [
        'customer.voucher.loyalty_card.points_added',
        'customer.rewarded.loyalty_points',
        'customer.loyalty.tier.joined',
      ].map((t) => types.has(t)),
      [true, true, true],
    );
    assert.equal(all.has_more, false);
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/members/{memberId}/activity', 200, all);

    const first = (await sdk.loyalties.listMemberActivity(
      undefined as unknown as string,
      card.code,
      beyondSdkTypes({
        limit: 2,
      }),
    )) as unknown as Resource;
    assert.deepEqual(first, {
      object: 'list',
      data_ref: 'data',
      data: all.data.slice(0, 2),
      has_more: true,
      more_starting_after: all.data[1]!.id,
    });
    assertMatchesReference('GET', '/v1/loyalties/members/{memberId}/activity', 200, first);
    const next = (await sdk.loyalties.listMemberActivity(
      program.id,
      card.code,
      beyondSdkTypes({
        limit: 2,
        starting_after_id: first.more_starting_after,
      }),
    )) as unknown as Resource;
    assert.deepEqual(next.data, all.data.slice(2, 4));
    const oldest = (await sdk.loyalties.listMemberActivity(
      program.id,
      card.code,
      beyondSdkTypes({
        limit: 1,
        order: 'created_at',
      }),
    )) as unknown as Resource;
    assert.deepEqual(oldest.data, [all.data.at(-1)]);

    // Another program's events of the same customer are not this card's.
    const moons = (await sdk.loyalties.create(
      beyondSdkTypes({
        name: 'SDK activity moons',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 7 } },
      }),
    )) as unknown as Resource;
    const other = (await sdk.loyalties.createMember(moons.id, {
      customer: { source_id: 'sdk-star-ann' },
    })) as unknown as Resource;
    assert.equal(other.holder_id, holder);
    const theirs = (await sdk.loyalties.listMemberActivity(
      moons.id,
      other.code,
      beyondSdkTypes({ limit: 100 }),
    )) as unknown as Page<Resource>;
    assert.ok(theirs.data.length > 0);
    assert.deepEqual(
      theirs.data.filter((e: Resource) => all.data.some((mine: Resource) => mine.id === e.id)),
      [],
    );
    const free = (await sdk.campaigns.addVoucher(moons.id, beyondSdkTypes({}))) as unknown as Resource;
    assert.deepEqual(await sdk.loyalties.listMemberActivity(moons.id, free.code, beyondSdkTypes({})), {
      object: 'list',
      data_ref: 'data',
      data: [],
      has_more: false,
    });
    await assert.rejects(
      sdk.loyalties.listMemberActivity(moons.id, card.code, beyondSdkTypes({})),
      (error: ApiError) => {
        assert.deepEqual(
          [error.code, error.key, error.details],
          [404, 'not_found', `Cannot find voucher with id ${card.code}`],
        );
        return true;
      },
    );
  });
});
