import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../../src/lib/clock.js';
import { assertMatchesReference, withoutNulls } from '../../support/openapi.js';
import { beyondSdkTypes, serverSideClient, type ServerSideClient } from '../../support/sdk.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { loyaltySetup } from './loyalty-setup.js';

const NOW = '2026-05-04T09:00:00.000Z';
type Json = Record<string, unknown>;

/**
 * POST /v1/loyalties/[{campaignId}/]members/{memberId}/redemption (the SDK's
 * loyalties.redeemReward): the card's reward redeemed for its holder, as the stackable
 * redemption of that one card, answered as that redemption.
 */
/** A reward redemption as the test reads it: the SDK's types know fewer fields than the answer has. */
interface RewardRedemption {
  id: string;
  reward?: { id: string; assignment_id: string };
  [field: string]: unknown;
}

/** A loyalty card with the figures the test reads. */
interface Card {
  loyalty_card: { balance: number };
  redemption: { redeemed_points: number };
}

/** An error as the SDK rejects with it: the API's error body. */
interface ApiError {
  code: number;
  key: string;
  details?: string;
  resource_type?: string;
  resource_id: string;
}

describe("redeeming a member's reward through @voucherify/sdk", () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  let setup: Awaited<ReturnType<typeof loyaltySetup>>;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    sdk = serverSideClient(server);
    setup = await loyaltySetup(server, 'rr', { points: 500, cost: 200, stock: 3 });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });
  const get = async <T = Json>(path: string): Promise<T> => (await server.request<T>('GET', path)).body;

  it("spends the card's points on the reward, with and without the program in the path", async () => {
    const redeemed = (await sdk.loyalties.redeemReward(
      setup.program.id,
      setup.member.code,
      beyondSdkTypes({
        reward: { id: setup.reward.id },
        metadata: { till: 4 },
      }),
    )) as unknown as RewardRedemption;
    assert.match(redeemed.id, /^r_/);
    // One redemption, no parent; its voucher is the card whole, as GET /v1/vouchers/{code} shows it after.
    const { voucher, ...own } = redeemed;
    const { voucher: short, ...stored } = await get(`/v1/redemptions/${redeemed.id}`);
    assert.deepEqual(own, stored);
    const { name: _name, email: _email, ...holder } = stored.customer as Json;
    assert.deepEqual(voucher, { ...(await get(`/v1/vouchers/${setup.member.code}`)), holder });
    assert.deepEqual(
      [redeemed.redemption, short],
      [
        null,
        {
          id: setup.member.id,
          code: setup.member.code,
          campaign: 'rr',
          campaign_id: setup.program.id,
          object: 'voucher',
        },
      ],
    );
    assert.deepEqual(
      [
        redeemed.object,
        redeemed.result,
        redeemed.customer_id,
        redeemed.loyalty_card,
        redeemed.reward?.id,
        redeemed.reward?.assignment_id,
        redeemed.metadata,
      ],
      [
        'redemption',
        'SUCCESS',
        setup.member.holder_id,
        { points: 200 },
        setup.reward.id,
        setup.assignment.id,
        { till: 4 },
      ],
    );
    // The reference's RedemptionRewardResult requires a `reward` property it does not define:
    // the answer is checked against it without its `reward`.
    const checked = (body: object) => withoutNulls({ ...body, reward: undefined });
    assertMatchesReference('POST', '/v1/loyalties/{campaignId}/members/{memberId}/redemption', 200, checked(redeemed));

    const bare = await server.request('POST', `/v1/loyalties/members/${setup.member.code}/redemption`, {
      body: { reward: { id: setup.reward.id } },
    });
    assert.equal(bare.status, 200, bare.text);
    assertMatchesReference('POST', '/v1/loyalties/members/{memberId}/redemption', 200, checked(bare.body));
    const card = await get<Card>(`/v1/loyalties/members/${setup.member.code}`);
    assert.deepEqual([card.loyalty_card.balance, card.redemption.redeemed_points], [100, 400]);
    assert.deepEqual([(await get(`/v1/rewards/${setup.reward.id}`)).redeemed], [2]);
  });

  it('counts every type of reward redeemed: a CAMPAIGN reward too; metadata left unset is null, and out of the reward', async () => {
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await server.request<Json>(method, path, { body });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const coupons = await ok('POST', '/v1/campaigns', {
      name: 'rr coupons',
      campaign_type: 'DISCOUNT_COUPONS',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
    });
    const reward = await ok('POST', '/v1/rewards', { name: 'rr coupon', parameters: { campaign: { id: coupons.id } } });
    assert.deepEqual([reward.redeemed, reward.metadata], [null, null]);
    await ok('POST', `/v1/loyalties/${setup.program.id}/rewards`, [
      { reward: reward.id, parameters: { loyalty: { points: 10 } } },
    ]);
    await ok('POST', `/v1/loyalties/members/${setup.member.code}/balance`, { points: 10 });
    const redeemed = await ok('POST', `/v1/loyalties/members/${setup.member.code}/redemption`, {
      reward: { id: reward.id },
      order: { amount: 100 },
    });
    const given = redeemed.reward as Json;
    assert.deepEqual(
      [redeemed.metadata, 'metadata' in given, given.id, (await get(`/v1/rewards/${reward.id}`)).redeemed],
      [null, false, reward.id, 1],
    );
    // One redemption: the order's entry names the card and its program, as the reference's recorded answer does.
    const order = redeemed.order as { id: string; redemptions: Json };
    const entry = {
      date: redeemed.date,
      related_object_type: 'voucher',
      related_object_id: setup.member.id,
      related_object_parent_id: setup.program.id,
    };
    assert.deepEqual([redeemed.redemption, order.redemptions], [null, { [redeemed.id as string]: entry }]);
    assert.deepEqual((await get<{ redemptions: Json }>(`/v1/orders/${order.id}`)).redemptions, order.redemptions);
    // Rolled back, the points come back and the reward's count goes back to none.
    await ok('POST', `/v1/redemptions/${redeemed.id}/rollback`);
    assert.deepEqual(
      [
        (await get<Card>(`/v1/loyalties/members/${setup.member.code}`)).loyalty_card.balance,
        (await get(`/v1/rewards/${reward.id}`)).redeemed,
      ],
      [110, null],
    );
    await ok('POST', `/v1/loyalties/members/${setup.member.code}/balance`, { points: -10 });
  });

  it('refuses as the stackable redemption does, and a card of another program or a body without reward', async () => {
    await assert.rejects(
      sdk.loyalties.redeemReward(
        setup.program.id,
        setup.member.code,
        beyondSdkTypes({ reward: { id: setup.reward.id } }),
      ),
      (error: ApiError) => {
        assert.deepEqual(
          [error.code, error.key, error.resource_type],
          [400, 'loyalty_card_points_exceeded', 'redemption'],
        );
        assert.match(error.resource_id, /^rf_/);
        return true;
      },
    );
    const other = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'rr other',
        campaign_type: 'LOYALTY_PROGRAM',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
      },
    });
    await assert.rejects(
      sdk.loyalties.redeemReward(other.body.id, setup.member.code, beyondSdkTypes({ reward: { id: setup.reward.id } })),
      (error: ApiError) => {
        assert.deepEqual(
          [error.code, error.key, error.details],
          [404, 'not_found', `Cannot find voucher with id ${setup.member.code}`],
        );
        return true;
      },
    );
    await assert.rejects(
      sdk.loyalties.redeemReward(setup.program.id, setup.member.code, beyondSdkTypes({ order: { amount: 100 } })),
      (error: ApiError) => {
        assert.deepEqual([error.code, error.key, error.details], [400, 'invalid_payload', 'reward is required']);
        return true;
      },
    );
    assert.equal((await get<Card>(`/v1/loyalties/members/${setup.member.code}`)).loyalty_card.balance, 100);
  });
});
