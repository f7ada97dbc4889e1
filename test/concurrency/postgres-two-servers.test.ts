import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { giftCard, percentVoucher } from '../api/redemptions/fixtures.js';
import type { SpawnedServer } from '../support/cli.js';
import { postgresForTests } from '../support/postgres.js';
import { PAIR_ENV, postgresPair, rowsOf, tally, via } from './postgres-pair.js';

const found = await postgresForTests();

/**
 * The money paths on PostgreSQL across two `promo serve` processes on one database: requests
 * alternate between the two servers and are all sent at once. The guarded statements hold as on
 * SQLite (READ COMMITTED re-checks them on the newest row); the per-customer limit holds by
 * locking the customer's row before counting (db/locks.ts). This process's test server, on
 * the same database, only sets up and reads back.
 */
describe('money on PostgreSQL across two promo serve processes', { skip: found.skip }, () => {
  const pair = postgresPair(() => found.server);
  const send = (i: number, method: string, path: string, body?: unknown) => via(pair, i, method, path, body);
  const rows = <T>(query: ReturnType<typeof sql<T>>) => rowsOf(pair, query);

  it('a single-use voucher under 200 concurrent redemptions succeeds exactly once', async () => {
    await percentVoucher(pair.setup, 'PG-ONCE', { redemption: { quantity: 1 } });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        send(i, 'POST', '/v1/redemptions', {
          order: { amount: 1000 },
          redeemables: [{ object: 'voucher', id: 'PG-ONCE' }],
        }),
      ),
    );
    assert.deepEqual(tally(results), { '200 ok': 1, '400 quantity_exceeded': 199 });
    assert.equal((await pair.setup.request('GET', '/v1/vouchers/PG-ONCE')).body.redemption.redeemed_quantity, 1);
    assert.deepEqual(
      await rows(sql`SELECT result, count(*) AS n FROM redemptions WHERE voucher_code = 'PG-ONCE'
                     GROUP BY result ORDER BY result`),
      [
        { result: 'FAILURE', n: 199 },
        { result: 'SUCCESS', n: 1 },
      ],
    );
  });

  it('a 1000-credit gift card under 100 concurrent 30-credit spends: exactly 33 succeed, 10 are left, the ledger sums to it', async () => {
    const card = await giftCard(pair.setup, 'PG-GIFT', 1000);
    const body = { order: { amount: 100 }, redeemables: [{ object: 'voucher', id: 'PG-GIFT', gift: { credits: 30 } }] };
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => send(i, 'POST', '/v1/redemptions', body)));
    assert.deepEqual(tally(results), { '200 ok': 33, '400 gift_amount_exceeded': 67 });
    assert.equal((await pair.setup.request('GET', '/v1/vouchers/PG-GIFT')).body.gift.balance, 10);
    assert.deepEqual(
      await rows(sql`SELECT type, count(*) AS n, sum(delta) AS s FROM ledger_entries
                     WHERE voucher_id = ${card.id} GROUP BY type ORDER BY type`),
      [
        { type: 'CREDITS_ADDITION', n: 1, s: 1000 },
        { type: 'CREDITS_REDEMPTION', n: 33, s: -990 },
      ],
    );
  });

  it('a per-customer limit of 2 lets each customer redeem exactly twice under 20 concurrent redemptions each', async () => {
    const rule = (
      await pair.setup.request('POST', '/v1/validation-rules', {
        body: {
          name: 'Twice each',
          rules: { '1': { name: 'redemption.count.per_customer', conditions: { $less_than: [2] } }, logic: '1' },
        },
      })
    ).body;
    await percentVoucher(pair.setup, 'PG-TWICE', { validation_rules: [rule.id] });
    const customers = ['pg-limited-a', 'pg-limited-b', 'pg-limited-c'];
    const results = await Promise.all(
      customers.flatMap((source_id) =>
        Array.from({ length: 20 }, (_, i) =>
          send(i, 'POST', '/v1/redemptions', {
            customer: { source_id },
            order: { amount: 1000 },
            redeemables: [{ object: 'voucher', id: 'PG-TWICE' }],
          }),
        ),
      ),
    );
    assert.deepEqual(tally(results), { '200 ok': 6, '400 customer_rules_violated': 54 });
    assert.deepEqual(
      await rows(sql`SELECT c.source_id, r.result, count(*) AS n FROM redemptions r
                     JOIN customers c ON c.id = r.customer_id WHERE r.voucher_code = 'PG-TWICE'
                     GROUP BY 1, 2 ORDER BY 1, 2`),
      customers.flatMap((source_id) => [
        { source_id, result: 'FAILURE', n: 18 },
        { source_id, result: 'SUCCESS', n: 2 },
      ]),
    );
  });

  it('100 concurrent rollbacks of one redemption: exactly one succeeds and the credits come back once', async () => {
    const card = await giftCard(pair.setup, 'PG-RB', 1000);
    const redeemed = await pair.setup.request('POST', '/v1/redemptions', {
      body: {
        customer: { source_id: 'pg-rb' },
        order: { amount: 500 },
        redeemables: [{ object: 'voucher', id: 'PG-RB', gift: { credits: 400 } }],
      },
    });
    assert.equal(redeemed.status, 200, redeemed.text);
    const childId = redeemed.body.redemptions[0].id;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => send(i, 'POST', `/v1/redemptions/${childId}/rollback`, {})),
    );
    assert.deepEqual(tally(results), { '200 ok': 1, '400 already_rolled_back': 99 });
    const voucher = (await pair.setup.request('GET', '/v1/vouchers/PG-RB')).body;
    assert.deepEqual([voucher.gift.balance, voucher.redemption.redeemed_quantity], [1000, 0]);
    assert.deepEqual(
      await rows(sql`SELECT type, count(*) AS n, sum(delta) AS s FROM ledger_entries
                     WHERE voucher_id = ${card.id} GROUP BY type ORDER BY type`),
      [
        { type: 'CREDITS_ADDITION', n: 1, s: 1000 },
        { type: 'CREDITS_REDEMPTION', n: 1, s: -400 },
        { type: 'CREDITS_REFUND', n: 1, s: 400 },
      ],
    );
  });

  it('an Idempotency-Key sent to both servers at once runs once: 10 keys, one spend each, the same answer twice', async () => {
    const card = await giftCard(pair.setup, 'PG-IDEM', 1000);
    const send = (server: SpawnedServer, key: string) =>
      fetch(`${server.url}/v1/redemptions`, {
        method: 'POST',
        headers: {
          'X-App-Id': PAIR_ENV.PROMO_APP_ID,
          'X-App-Token': PAIR_ENV.PROMO_APP_TOKEN,
          'Idempotency-Key': key,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          order: { amount: 100 },
          redeemables: [{ object: 'voucher', id: 'PG-IDEM', gift: { credits: 30 } }],
        }),
      }).then(async (r) => ({ status: r.status, text: await r.text() }));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => Promise.all(pair.servers.map((server) => send(server, `pg-idem-${i}`)))),
    );
    for (const [i, [here, there]] of answers.entries()) {
      assert.deepEqual([here?.status, there?.status], [200, 200], `key ${i}: ${here?.text} / ${there?.text}`);
      assert.equal(here?.text, there?.text, `key ${i}: one answer`);
    }
    assert.equal((await pair.setup.request('GET', '/v1/vouchers/PG-IDEM')).body.gift.balance, 700);
    assert.deepEqual(
      await rows(sql`SELECT count(*) AS n, sum(delta) AS s FROM ledger_entries
                     WHERE voucher_id = ${card.id} AND type = 'CREDITS_REDEMPTION'`),
      [{ n: 10, s: -300 }],
    );
  });
});
