import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientSideClient, serverSideClient } from '../../support/sdk.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { giftCard, ITEMS, percentVoucher } from './fixtures.js';
import { loyaltySetup } from './loyalty-setup.js';

/**
 * The official @voucherify/sdk clients against promo: server side (redemptions.redeemStackable,
 * validations.validateStackable) and client side (clientSide.validateStackable,
 * redeemStackable) with a discount plus a gift card, and a loyalty card spending points on a
 * reward. Each answer is the one the HTTP API gives (the same body, asserted whole there).
 */
/** A reward redemption's child as the test reads it: the SDK's types know fewer fields than the answer has. */
interface RewardRedemption {
  result: string;
  loyalty_card: unknown;
  amount: number;
  reward?: { id: string; assignment_id: string };
}

describe('stackable redemptions through the official SDK', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const params = (pct: string, gift: string) => ({
    customer: { source_id: `sdk-${pct}` },
    order: { items: ITEMS },
    redeemables: [
      { object: 'voucher' as const, id: pct },
      { object: 'voucher' as const, id: gift, gift: { credits: 250 } },
    ],
  });

  it('validates then redeems a discount plus a gift card with the server-side client', async () => {
    await percentVoucher(server, 'SDK-PCT');
    await giftCard(server, 'SDK-GIFT', 1000);
    const client = serverSideClient(server);
    const validation = await client.validations.validateStackable(params('SDK-PCT', 'SDK-GIFT'));
    assert.deepEqual(
      [validation.valid, validation.redeemables?.map((r) => r.status), validation.order?.total_amount],
      [true, ['APPLICABLE', 'APPLICABLE'], 650],
    );
    const redeemed = await client.redemptions.redeemStackable(params('SDK-PCT', 'SDK-GIFT'));
    assert.deepEqual(
      [
        redeemed.redemptions.map((r) => [r.result, r.voucher?.code]),
        redeemed.order?.total_amount,
        redeemed.parent_redemption.result,
      ],
      [
        [
          ['SUCCESS', 'SDK-PCT'],
          ['SUCCESS', 'SDK-GIFT'],
        ],
        650,
        'SUCCESS',
      ],
    );
    assert.equal((await server.request('GET', '/v1/vouchers/SDK-GIFT')).body.gift.balance, 750);
  });

  it('validates then redeems with the client-side client', async () => {
    await percentVoucher(server, 'SDK-CPCT');
    await giftCard(server, 'SDK-CGIFT', 1000);
    const client = clientSideClient(server);
    const validation = await client.validateStackable(params('SDK-CPCT', 'SDK-CGIFT'));
    assert.equal(validation.valid, true);
    const redeemed = await client.redeemStackable(params('SDK-CPCT', 'SDK-CGIFT'));
    assert.deepEqual([redeemed.redemptions.length, redeemed.order?.total_amount], [2, 650]);
  });

  it('refuses through the SDK with the failure key and the failed redemption', async () => {
    const client = serverSideClient(server);
    await assert.rejects(
      client.redemptions.redeemStackable({
        order: { amount: 100 },
        redeemables: [{ object: 'voucher', id: 'SDK-NONE' }],
      }),
      (error: Record<string, unknown>) => {
        assert.deepEqual([error.code, error.key, error.resource_type], [400, 'resource_not_found', 'redemption']);
        assert.match(error.resource_id as string, /^rf_/);
        return true;
      },
    );
  });

  it("spends a loyalty card's points on a material reward, taking one unit of its stock", async () => {
    const setup = await loyaltySetup(server, 'sdk-loyalty', { points: 500, cost: 200, stock: 3 });
    const client = serverSideClient(server);
    const redeemed = await client.redemptions.redeemStackable({
      customer: { source_id: setup.customerSourceId },
      redeemables: [{ object: 'voucher', id: setup.member.code, reward: { id: setup.reward.id } }],
    });
    // The SDK's types know fewer fields than the answer has: read it as plain JSON.
    const child = redeemed.redemptions[0] as unknown as RewardRedemption;
    assert.deepEqual(
      [child.result, child.loyalty_card, child.amount, child.reward?.id, child.reward?.assignment_id],
      ['SUCCESS', { points: 200 }, 200, setup.reward.id, setup.assignment.id],
    );
    const card = (await server.request('GET', `/v1/loyalties/members/${setup.member.code}`)).body;
    assert.deepEqual([card.loyalty_card.balance, card.redemption.redeemed_points], [300, 200]);
    const reward = (await server.request('GET', `/v1/rewards/${setup.reward.id}`)).body;
    assert.deepEqual([reward.stock, reward.redeemed], [3, 1]);
  });
});
