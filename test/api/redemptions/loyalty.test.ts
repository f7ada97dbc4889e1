import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../support/server.js';
import { errorBody } from '../../support/server.js';
import { loyaltySetup } from './loyalty-setup.js';

/**
 * Loyalty cards in a stackable redemption: points spent on a reward through the points ledger
 * (loyalty_card_points_exceeded when the card cannot pay), a CAMPAIGN reward (a gift card
 * issued to the customer with the reward's balance), and a COIN reward paying the order with
 * points at its ratio.
 */
describe('loyalty rewards in redemptions', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await server.request(method, path, { body });
    assert.equal(res.status, 200, `${method} ${path}: ${res.text}`);
    return res.body;
  };

  it('refuses a reward the card cannot pay for with loyalty_card_points_exceeded, spending nothing', async () => {
    const setup = await loyaltySetup(server, 'poor', { points: 50, cost: 100 });
    const res = await server.request('POST', '/v1/redemptions', {
      body: {
        customer: { source_id: setup.customerSourceId },
        redeemables: [{ object: 'voucher', id: setup.member.code, reward: { id: setup.reward.id } }],
      },
    });
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'loyalty_card_points_exceeded',
        message: 'Loyalty card points exceeded',
        details: `voucher ${setup.member.code}: Loyalty card points exceeded`,
        resource_id: res.body.resource_id,
        resource_type: 'redemption',
      }),
    );
    assert.equal((await ok('GET', `/v1/vouchers/${setup.member.code}`)).loyalty_card.balance, 50);
  });

  it("gives a CAMPAIGN reward: a gift card of the reward's campaign issued to the customer with its balance", async () => {
    const setup = await loyaltySetup(server, 'campaign-reward', { points: 300, cost: 100 });
    const gifts = await ok('POST', '/v1/campaigns', {
      name: 'Reward gifts',
      campaign_type: 'GIFT_VOUCHERS',
      voucher: { type: 'GIFT_VOUCHER', gift: { amount: 0 } },
    });
    const reward = await ok('POST', '/v1/rewards', {
      name: '20 off',
      parameters: { campaign: { id: gifts.id, balance: 2000 } },
    });
    await ok('POST', `/v1/loyalties/${setup.program.id}/rewards`, [
      { reward: reward.id, parameters: { loyalty: { points: 100 } } },
    ]);
    const res = await ok('POST', '/v1/redemptions', {
      customer: { source_id: setup.customerSourceId },
      redeemables: [{ object: 'voucher', id: setup.member.code, reward: { id: reward.id } }],
    });
    const given = res.redemptions[0].reward.voucher;
    assert.deepEqual(given, {
      id: given.id,
      code: given.code,
      campaign: 'Reward gifts',
      campaign_id: gifts.id,
      object: 'voucher',
    });
    const card = await ok('GET', `/v1/vouchers/${given.code}`);
    assert.deepEqual(
      [card.holder_id, card.gift.balance, res.redemptions[0].loyalty_card],
      [res.parent_redemption.customer_id, 2000, { points: 100 }],
    );
    assert.equal((await ok('GET', `/v1/vouchers/${setup.member.code}`)).loyalty_card.balance, 200);
  });

  it('pays for the order with a COIN reward: 10 points per 1.00, spending only what the order needs', async () => {
    const setup = await loyaltySetup(server, 'coin', { points: 1000, cost: 1 });
    const coin = await ok('POST', '/v1/rewards', {
      name: 'Pay with points',
      parameters: { coin: { exchange_ratio: 100, points_ratio: 10 } },
    });
    await ok('POST', `/v1/loyalties/${setup.program.id}/rewards`, [{ reward: coin.id }]);
    const res = await ok('POST', '/v1/redemptions', {
      customer: { source_id: setup.customerSourceId },
      order: { amount: 2550 },
      redeemables: [{ object: 'voucher', id: setup.member.code, reward: { id: coin.id } }],
    });
    // 2550 to pay at 10 points per 100: 255 points.
    assert.deepEqual(
      [res.order.total_amount, res.redemptions[0].loyalty_card, res.redemptions[0].reward.type],
      [0, { points: 255 }, 'COIN'],
    );
    assert.equal((await ok('GET', `/v1/vouchers/${setup.member.code}`)).loyalty_card.balance, 745);
  });
});
