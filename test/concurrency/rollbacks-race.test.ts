import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { twoProcesses } from '../support/two-processes.js';
import { giftCard, percentVoucher } from '../api/redemptions/fixtures.js';
import { loyaltySetup } from '../api/redemptions/loyalty-setup.js';
import { assertCardMatchesLedger } from '../modules/ledgers/recompute.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'rollback-race-app', PROMO_APP_TOKEN: 'rollback-race-token' };

/**
 * Rollbacks and session locks across two processes on one file (this test server and a spawned `promo serve`),
 * requests alternating between them and all sent at once: the guarded status change lets
 * exactly one rollback of a redemption through, and rollbacks racing redemptions of the same
 * card leave its ledger summing to its balance; a locked last unit goes to its session only.
 */
describe('rollbacks across two processes', () => {
  const pair = twoProcesses(ENV);
  const via = (i: number, path: string, body: unknown) =>
    (i % 2 === 0
      ? pair.server.request('POST', path, { body })
      : pair.other.request<{ key?: string }>('POST', path, body)
    ).then((r) => `${r.status} ${(r.body as { key?: string }).key ?? 'ok'}`);
  const count = (results: string[]) =>
    results.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r]: (acc[r] ?? 0) + 1 }), {});
  const sqlite = () => sqliteOf(pair.server.deps);

  it('100 concurrent rollbacks of one redemption: exactly one succeeds, the credits come back once, 99 failed rollbacks are recorded', async () => {
    const { server } = pair;
    const card = await giftCard(server, 'RB-ONCE', 1000);
    const redeemed = await server.request('POST', '/v1/redemptions', {
      body: {
        customer: { source_id: 'rb-once' },
        order: { amount: 500 },
        redeemables: [{ object: 'voucher', id: 'RB-ONCE', gift: { credits: 400 } }],
      },
    });
    assert.equal(redeemed.status, 200, redeemed.text);
    const childId = redeemed.body.redemptions[0].id;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => via(i, `/v1/redemptions/${childId}/rollback`, {})),
    );
    assert.deepEqual(count(results), { '200 ok': 1, '400 already_rolled_back': 99 });
    const body = (await server.request('GET', '/v1/vouchers/RB-ONCE')).body;
    assert.deepEqual([body.gift.balance, body.redemption.redeemed_quantity], [1000, 0]);
    const records = sqlite()
      .prepare('SELECT result, count(*) AS n FROM redemptions WHERE parent_id = ? GROUP BY result ORDER BY result')
      .all(childId);
    assert.deepEqual(records, [
      { result: 'FAILURE', n: 99 },
      { result: 'SUCCESS', n: 1 },
    ]);
    assert.deepEqual(
      sqlite()
        .prepare("SELECT count(*) AS n FROM ledger_entries WHERE voucher_id = ? AND type = 'CREDITS_REFUND'")
        .get(card.id),
      { n: 1 },
    );
    assertCardMatchesLedger(sqlite(), card.id);
    const summary = (await server.request('GET', `/v1/customers/${redeemed.body.parent_redemption.customer_id}`)).body
      .summary.redemptions;
    assert.deepEqual(
      [summary.total_rolled_back, summary.total_rollback_succeeded, summary.total_rollback_failed],
      [1, 1, 99],
    );
  });

  it('100 concurrent stacked rollbacks of one parent: exactly one succeeds, the voucher and the points come back once', async () => {
    const { server } = pair;
    await percentVoucher(server, 'RB-STACK', { redemption: { quantity: 1 } });
    const loyal = await loyaltySetup(server, 'rb-stack', { points: 100, cost: 40, stock: 1 });
    const redeemed = await server.request('POST', '/v1/redemptions', {
      body: {
        customer: { source_id: loyal.customerSourceId },
        order: { amount: 1000 },
        redeemables: [
          { object: 'voucher', id: 'RB-STACK' },
          { object: 'voucher', id: loyal.member.code, reward: { id: loyal.reward.id } },
        ],
      },
    });
    assert.equal(redeemed.status, 200, redeemed.text);
    const parentId = redeemed.body.parent_redemption.id;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => via(i, `/v1/redemptions/${parentId}/rollbacks`, {})),
    );
    assert.deepEqual(count(results), { '200 ok': 1, '400 already_rolled_back': 99 });
    const voucher = (await server.request('GET', '/v1/vouchers/RB-STACK')).body;
    const member = (await server.request('GET', `/v1/vouchers/${loyal.member.code}`)).body;
    const reward = (await server.request('GET', `/v1/rewards/${loyal.reward.id}`)).body;
    // The reward's unit came back: no redemption of it stands, so its `redeemed` is null again.
    assert.deepEqual(
      [voucher.redemption.redeemed_quantity, member.loyalty_card.balance, reward.redeemed],
      [0, 100, null],
    );
    assertCardMatchesLedger(sqlite(), loyal.member.id);
  });

  it('redemptions and rollbacks of one gift card at once: every rollback succeeds and the ledger still sums to the balance', async () => {
    const { server } = pair;
    const card = await giftCard(server, 'RB-MIX', 1000);
    const body = { order: { amount: 100 }, redeemables: [{ object: 'voucher', id: 'RB-MIX', gift: { credits: 30 } }] };
    const first: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await server.request('POST', '/v1/redemptions', { body });
      assert.equal(res.status, 200, res.text);
      first.push(res.body.redemptions[0].id);
    }
    // 400 left: 20 rollbacks give back 600 while 60 redemptions of 30 take what they can.
    const requests = [
      ...first.map((id, i) => () => via(i, `/v1/redemptions/${id}/rollback`, {}).then((r) => `rollback ${r}`)),
      ...Array.from({ length: 60 }, (_, i) => () => via(i + 1, '/v1/redemptions', body).then((r) => `redeem ${r}`)),
    ];
    const shuffled = requests
      .map((run, i) => ({ run, key: (i * 7919) % requests.length }))
      .sort((a, b) => a.key - b.key);
    const counts = count(await Promise.all(shuffled.map(({ run }) => run())));
    assert.equal(counts['rollback 200 ok'], 20);
    const redeemedOk = counts['redeem 200 ok'] ?? 0;
    assert.equal(redeemedOk + (counts['redeem 400 gift_amount_exceeded'] ?? 0), 60);
    const balance = (await server.request('GET', '/v1/vouchers/RB-MIX')).body.gift.balance;
    assert.equal(balance, 1000 - 30 * redeemedOk);
    // At least what the 400 left pays for (13), at most what the whole 1000 does (33): no overdraw.
    assert.ok(redeemedOk >= 13 && redeemedOk <= 33, `${redeemedOk} redemptions succeeded`);
    assertCardMatchesLedger(sqlite(), card.id);
    const sums = sqlite()
      .prepare(
        'SELECT type, count(*) AS n, sum(delta) AS s FROM ledger_entries WHERE voucher_id = ? GROUP BY type ORDER BY type',
      )
      .all(card.id);
    assert.deepEqual(sums, [
      { type: 'CREDITS_ADDITION', n: 1, s: 1000 },
      { type: 'CREDITS_REDEMPTION', n: 20 + redeemedOk, s: -30 * (20 + redeemedOk) },
      { type: 'CREDITS_REFUND', n: 20, s: 600 },
    ]);
  });

  it("a session lock on the last unit under 60 concurrent redemptions: only the session's own redemption gets it", async () => {
    const { server } = pair;
    await percentVoucher(server, 'RB-LOCK', { redemption: { quantity: 1 } });
    const body = { order: { amount: 1000 }, redeemables: [{ object: 'voucher', id: 'RB-LOCK' }] };
    const lock = await server.request('POST', '/v1/validations', {
      body: { ...body, session: { type: 'LOCK', key: 'race-lock' } },
    });
    assert.equal(lock.status, 200, lock.text);
    const requests = Array.from({ length: 60 }, (_, i) => via(i, '/v1/redemptions', body));
    requests.splice(
      30,
      0,
      via(1, '/v1/redemptions', { ...body, session: { key: 'race-lock' } }).then((r) => `session ${r}`),
    );
    assert.deepEqual(count(await Promise.all(requests)), { 'session 200 ok': 1, '400 quantity_exceeded': 60 });
    assert.deepEqual(
      sqlite().prepare("SELECT redeemed_quantity, reserved_quantity FROM vouchers WHERE code = 'RB-LOCK'").get(),
      { redeemed_quantity: 1, reserved_quantity: 0 },
    );
  });
});
