import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { giftCard, percentVoucher } from '../api/redemptions/fixtures.js';
import { assertCardMatchesLedger } from '../modules/ledgers/recompute.js';
import { alternately, twoProcesses, type Answer } from '../support/two-processes.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'redemption-limits-race-app', PROMO_APP_TOKEN: 'redemption-limits-race-token' };

/**
 * Limits a redemption checks against what earlier redemptions wrote, under concurrent requests
 * through two `promo serve` processes on one file: a validation rule's per-customer count is
 * read inside the redemption's write transaction, so no customer gets past it; and a stacked
 * redemption is all or nothing, so a lost race on one voucher takes nothing from the other.
 */
describe('redemption limits across two processes', () => {
  const pair = twoProcesses(ENV);

  const redeemVia = (i: number, body: unknown) => alternately(pair, i, 'POST', '/v1/redemptions', body);
  const tally = (answers: Answer[]) =>
    answers.reduce<Record<string, number>>((acc, a) => {
      const key = `${a.status} ${a.status === 200 ? 'ok' : a.body.key}`;
      return { ...acc, [key]: (acc[key] ?? 0) + 1 };
    }, {});

  it('a per-customer limit of 2 lets each customer redeem exactly twice under 20 concurrent redemptions each', async () => {
    const { server } = pair;
    const rule = (
      await server.request('POST', '/v1/validation-rules', {
        body: {
          name: 'Twice each',
          rules: { '1': { name: 'redemption.count.per_customer', conditions: { $less_than: [2] } }, logic: '1' },
        },
      })
    ).body;
    await percentVoucher(server, 'TWICE-EACH', { validation_rules: [rule.id] });
    const customers = ['limited-a', 'limited-b', 'limited-c'];
    const answers = await Promise.all(
      customers.flatMap((source_id) =>
        Array.from({ length: 20 }, (_, i) =>
          redeemVia(i, {
            customer: { source_id },
            order: { amount: 1000 },
            redeemables: [{ object: 'voucher', id: 'TWICE-EACH' }],
          }),
        ),
      ),
    );
    assert.deepEqual(tally(answers), { '200 ok': 6, '400 customer_rules_violated': 54 });
    const rows = sqliteOf(server.deps)
      .prepare(
        "SELECT c.source_id, r.result, count(*) AS n FROM redemptions r JOIN customers c ON c.id = r.customer_id WHERE r.voucher_code = 'TWICE-EACH' GROUP BY 1, 2 ORDER BY 1, 2",
      )
      .all();
    assert.deepEqual(
      rows,
      customers.flatMap((source_id) => [
        { source_id, result: 'FAILURE', n: 18 },
        { source_id, result: 'SUCCESS', n: 2 },
      ]),
    );
    assert.equal((await server.request('GET', '/v1/vouchers/TWICE-EACH')).body.redemption.redeemed_quantity, 6);
  });

  it('a stacked redemption whose limited voucher lost the race takes nothing from the gift card beside it', async () => {
    const { server } = pair;
    await percentVoucher(server, 'STACK-FIVE', { redemption: { quantity: 5 } });
    const card = await giftCard(server, 'STACK-GIFT', 1000);
    const body = {
      order: { amount: 1000 },
      redeemables: [
        { object: 'voucher', id: 'STACK-FIVE' },
        { object: 'voucher', id: 'STACK-GIFT', gift: { credits: 10 } },
      ],
    };
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => redeemVia(i, body)));
    const counts = tally(answers);
    assert.equal(counts['200 ok'], 5, JSON.stringify(counts));
    assert.equal((await server.request('GET', '/v1/vouchers/STACK-FIVE')).body.redemption.redeemed_quantity, 5);
    assert.equal((await server.request('GET', '/v1/vouchers/STACK-GIFT')).body.gift.balance, 950);
    assert.deepEqual(
      sqliteOf(server.deps)
        .prepare(
          "SELECT count(*) AS n, sum(delta) AS s FROM ledger_entries WHERE voucher_id = ? AND type = 'CREDITS_REDEMPTION'",
        )
        .get(card.id),
      { n: 5, s: -50 },
    );
    assertCardMatchesLedger(sqliteOf(server.deps), card.id);
  });
});
