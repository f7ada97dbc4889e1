import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../../src/lib/clock.js';
import { expireDueBuckets } from '../../../src/modules/ledgers/points-expiry.sweep.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { loyaltySetup } from './loyalty-setup.js';

/**
 * Rolling back a loyalty card's reward redemption: the points go back into the very buckets
 * they were drawn from (read from the points-expiration list and the ledger), keeping their
 * expiry; points whose bucket expired meanwhile come back and expire at once; the reward's unit
 * of stock comes back; the customer's loyalty points and the reward events follow.
 */
const NOW = '2026-03-10T12:00:00.000Z';

describe('rollbacks of loyalty redemptions', () => {
  let server: TestServer;
  const clock = fixedClock(NOW);
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await server.request(method, path, { body });
    assert.equal(res.status, 200, `${method} ${path}: ${res.text}`);
    return res.body;
  };

  /** A card with 30 points expiring 2026-03-31, 50 expiring 2026-06-30 and 100 never; a reward costing 60. */
  async function setup(name: string) {
    const s = await loyaltySetup(server, name, { points: 0, cost: 60, stock: 5 });
    const balance = (points: number, date: string | null) =>
      ok(
        'POST',
        `/v1/loyalties/members/${s.member.code}/balance`,
        date
          ? { points, expiration_type: 'CUSTOM_DATE', expiration_date: date }
          : { points, expiration_type: 'NON_EXPIRING' },
      );
    await balance(30, '2026-03-31');
    await balance(50, '2026-06-30');
    await balance(100, null);
    const redeemed = await ok('POST', '/v1/redemptions', {
      customer: { source_id: s.customerSourceId },
      redeemables: [{ object: 'voucher', id: s.member.code, reward: { id: s.reward.id } }],
    });
    return { ...s, redeemed, child: redeemed.redemptions[0] };
  }

  const buckets = async (s: { program: { id: string }; member: { code: string } }) =>
    (await ok('GET', `/v1/loyalties/${s.program.id}/members/${s.member.code}/points-expiration`)).data.map(
      (b: { expires_at?: string | null; bucket: { total_points: number }; status: string }) => [
        b.expires_at ?? null,
        b.bucket.total_points,
        b.status,
      ],
    );
  const card = async (code: string) => (await ok('GET', `/v1/vouchers/${code}`)).loyalty_card;

  it("puts the 60 points back where they came from: 30 into March, 30 into June, and the reward's unit back in stock", async () => {
    const s = await setup('rb-buckets');
    assert.deepEqual(await buckets(s), [
      ['2026-06-30', 20, 'ACTIVE'],
      [null, 100, 'ACTIVE'],
    ]);
    assert.equal((await ok('GET', `/v1/rewards/${s.reward.id}`)).redeemed, 1);
    const rollback = await ok('POST', `/v1/redemptions/${s.child.id}/rollback`, { reason: 'Mug returned' });
    assert.deepEqual([rollback.amount, rollback.loyalty_card, rollback.reward], [-60, { points: -60 }, s.child.reward]);
    assert.deepEqual(await buckets(s), [
      ['2026-03-31', 30, 'ACTIVE'],
      ['2026-06-30', 50, 'ACTIVE'],
      [null, 100, 'ACTIVE'],
    ]);
    assert.deepEqual(await card(s.member.code), {
      points: 180,
      balance: 180,
      next_expiration_date: '2026-03-31',
      next_expiration_points: 30,
      pending_points: 0,
      expired_points: 0,
      subtracted_points: 0,
    });
    const rows = (await ok('GET', `/v1/vouchers/${s.member.code}/transactions?limit=100`)).data;
    const [refund, debit] = rows;
    assert.deepEqual(
      [
        refund.type,
        refund.details.balance.points,
        refund.details.balance.balance,
        refund.related_transaction_id,
        refund.details.rollback,
        debit.type,
      ],
      ['POINTS_REFUND', 60, 180, debit.id, { id: rollback.id }, 'POINTS_REDEMPTION'],
    );
    assert.equal(
      (await ok('GET', `/v1/rewards/${s.reward.id}`)).redeemed,
      null,
      'no redemption of it stands: null, as before the first',
    );
    const customer = await ok('GET', `/v1/customers/${s.child.customer_id}`);
    assert.equal(customer.loyalty.points, 180);
    const types = (await ok('GET', `/v1/customers/${s.child.customer_id}/activity?limit=100`)).data.map(
      (e: { type: string }) => e.type,
    );
    assert.deepEqual(
      types.filter((t: string) => t.includes('rollback') || t.includes('rolledback')),
      ['customer.redemption.rollback.succeeded', 'customer.reward_redemptions.rolledback'],
    );
  });

  it('lets points of a bucket that expired meanwhile come back and expire at once; the rest keep their expiry', async () => {
    const s = await setup('rb-expired');
    clock.set('2026-04-02T08:00:00.000Z');
    try {
      await expireDueBuckets(server.deps);
      assert.deepEqual(await buckets(s), [
        ['2026-06-30', 20, 'ACTIVE'],
        [null, 100, 'ACTIVE'],
      ]);
      const rollback = await ok('POST', `/v1/redemptions/${s.child.id}/rollback`, {});
      assert.deepEqual([rollback.amount, rollback.loyalty_card], [-60, { points: -60 }]);
      assert.deepEqual(await buckets(s), [
        ['2026-06-30', 50, 'ACTIVE'],
        [null, 100, 'ACTIVE'],
      ]);
      assert.deepEqual(await card(s.member.code), {
        points: 180,
        balance: 150,
        next_expiration_date: '2026-06-30',
        next_expiration_points: 50,
        pending_points: 0,
        expired_points: 30,
        subtracted_points: 0,
      });
      const rows = (await ok('GET', `/v1/vouchers/${s.member.code}/transactions?limit=100`)).data.slice(0, 3);
      assert.deepEqual(
        rows.map((r: { type: string; details: { balance: { points: number; balance: number } } }) => [
          r.type,
          r.details.balance.points,
          r.details.balance.balance,
        ]),
        [
          ['POINTS_EXPIRATION', -30, 150],
          ['POINTS_REFUND', 60, 180],
          ['POINTS_REDEMPTION', -60, 120],
        ],
      );
      assert.equal((await ok('GET', `/v1/customers/${s.child.customer_id}`)).loyalty.points, 150);
    } finally {
      clock.set(NOW);
    }
  });
});
