import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { twoProcesses } from '../support/two-processes.js';
import { giftCard, percentVoucher } from '../api/redemptions/fixtures.js';
import { loyaltySetup } from '../api/redemptions/loyalty-setup.js';
import { assertCardMatchesLedger } from '../modules/ledgers/recompute.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'redeem-race-app', PROMO_APP_TOKEN: 'redeem-race-token' };

/**
 * Redemptions' guarded counters across two processes on one file: this one (the test server)
 * and a spawned `promo serve`, requests alternating between them and all sent at once. Every
 * lost race is a refused redemption (400 with its failure key), never an overdraw; the
 * refused ones are stored as failed redemptions.
 */
describe('redemptions across two processes', () => {
  const pair = twoProcesses(ENV);
  const redeemVia = (i: number, body: unknown) =>
    (i % 2 === 0
      ? pair.server.request('POST', '/v1/redemptions', { body })
      : pair.other.request<{ key?: string }>('POST', '/v1/redemptions', body)
    ).then((r) => `${r.status} ${(r.body as { key?: string }).key ?? 'ok'}`);
  const count = (results: string[]) =>
    results.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r]: (acc[r] ?? 0) + 1 }), {});
  const failedCount = (code: string) =>
    (
      sqliteOf(pair.server.deps)
        .prepare("SELECT count(*) AS n FROM redemptions WHERE voucher_code = ? AND result = 'FAILURE'")
        .get(code) as { n: number }
    ).n;

  it('a single-use voucher under 200 concurrent redemptions succeeds exactly once', async () => {
    const { server } = pair;
    await percentVoucher(server, 'RACE-ONCE', { redemption: { quantity: 1 } });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        redeemVia(i, { order: { amount: 1000 }, redeemables: [{ object: 'voucher', id: 'RACE-ONCE' }] }),
      ),
    );
    assert.deepEqual(count(results), { '200 ok': 1, '400 quantity_exceeded': 199 });
    assert.equal((await server.request('GET', '/v1/vouchers/RACE-ONCE')).body.redemption.redeemed_quantity, 1);
    assert.equal(failedCount('RACE-ONCE'), 199);
  });

  it('a 1000-credit gift card under 100 concurrent 30-credit redemptions: exactly 33 succeed and 10 are left', async () => {
    const { server } = pair;
    const card = await giftCard(server, 'RACE-GIFT', 1000);
    const body = {
      order: { amount: 100 },
      redeemables: [{ object: 'voucher', id: 'RACE-GIFT', gift: { credits: 30 } }],
    };
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => redeemVia(i, body)));
    assert.deepEqual(count(results), { '200 ok': 33, '400 gift_amount_exceeded': 67 });
    assert.equal((await server.request('GET', '/v1/vouchers/RACE-GIFT')).body.gift.balance, 10);
    assert.deepEqual(
      sqliteOf(server.deps)
        .prepare(
          "SELECT count(*) AS n, sum(delta) AS s FROM ledger_entries WHERE voucher_id = ? AND type = 'CREDITS_REDEMPTION'",
        )
        .get(card.id),
      { n: 33, s: -990 },
    );
  });

  it('a reward with stock 5 under 50 concurrent redemptions is given exactly 5 times, and points never go negative', async () => {
    const { server } = pair;
    // 50 redemptions of 10 points from a card of 1000: points are plenty, stock is the limit.
    const stocked = await loyaltySetup(server, 'race-stock', { points: 1000, cost: 10, stock: 5 });
    const body = {
      customer: { source_id: stocked.customerSourceId },
      redeemables: [{ object: 'voucher', id: stocked.member.code, reward: { id: stocked.reward.id } }],
    };
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => redeemVia(i, body)));
    assert.deepEqual(count(results), { '200 ok': 5, '400 reward_out_of_stock': 45 });
    const reward = (await server.request('GET', `/v1/rewards/${stocked.reward.id}`)).body;
    assert.deepEqual([reward.stock, reward.redeemed], [5, 5]);
    assert.equal((await server.request('GET', `/v1/vouchers/${stocked.member.code}`)).body.loyalty_card.balance, 950);

    // 50 redemptions of 30 points from a card of 1000, stock unlimited: 33 succeed, 10 are left.
    const points = await loyaltySetup(server, 'race-points', { points: 1000, cost: 30, stock: null });
    const spend = {
      customer: { source_id: points.customerSourceId },
      redeemables: [{ object: 'voucher', id: points.member.code, reward: { id: points.reward.id } }],
    };
    const spent = await Promise.all(Array.from({ length: 50 }, (_, i) => redeemVia(i, spend)));
    assert.deepEqual(count(spent), { '200 ok': 33, '400 loyalty_card_points_exceeded': 17 });
    assert.equal((await server.request('GET', `/v1/vouchers/${points.member.code}`)).body.loyalty_card.balance, 10);
    assertCardMatchesLedger(sqliteOf(server.deps), points.member.id);
  });
});
