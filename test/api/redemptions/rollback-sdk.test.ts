import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serverSideClient } from '../../support/sdk.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { giftCard, ITEMS, percentVoucher } from './fixtures.js';

/**
 * The official @voucherify/sdk's rollbacks against promo: redemptions.rollback (reason as a
 * params, then with the customer) and redemptions.rollbackStackable. Each answer is
 * the one the HTTP API gives (asserted whole in rollback.test.ts).
 */
describe('rollbacks through the official SDK', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('rolls back one redemption with rollback() and a stack with rollbackStackable()', async () => {
    await percentVoucher(server, 'SDK-RB-PCT');
    await giftCard(server, 'SDK-RB-GIFT', 1000);
    const client = serverSideClient(server);
    const redeem = () =>
      client.redemptions.redeemStackable({
        customer: { source_id: 'sdk-rb' },
        order: { items: ITEMS },
        redeemables: [
          { object: 'voucher', id: 'SDK-RB-PCT' },
          { object: 'voucher', id: 'SDK-RB-GIFT', gift: { credits: 250 } },
        ],
      });
    const first = await redeem();
    const gift = first.redemptions[1]!;
    const one = await client.redemptions.rollback(gift.id, { reason: 'Wrong card' });
    assert.deepEqual(
      [one.object, one.redemption, one.reason, one.amount, one.result],
      ['redemption_rollback', gift.id, 'Wrong card', -250, 'SUCCESS'],
    );
    const pct = first.redemptions[0]!;
    const two = await client.redemptions.rollback(pct.id, {
      reason: 'Returned',
      customer: { id: pct.customer_id!, source_id: 'sdk-rb', object: 'customer' },
    });
    assert.deepEqual(
      [two.redemption, two.reason, (two as { customer?: { source_id?: string } }).customer?.source_id],
      [pct.id, 'Returned', 'sdk-rb'],
    );
    await assert.rejects(
      client.redemptions.rollback(pct.id),
      (error: { key?: string; code?: number }) => error.key === 'already_rolled_back' && error.code === 400,
    );

    const second = await redeem();
    const stacked = await client.redemptions.rollbackStackable(second.parent_redemption.id, { reason: 'Cancelled' });
    assert.deepEqual(
      [stacked.rollbacks.map((r) => r.redemption), stacked.parent_rollback.redemption, stacked.order?.total_amount],
      [second.redemptions.map((r) => r.id), second.parent_redemption.id, 1000],
    );
    assert.equal((await server.request('GET', '/v1/vouchers/SDK-RB-GIFT')).body.gift.balance, 1000);
  });
});
