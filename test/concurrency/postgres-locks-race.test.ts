import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { percentVoucher } from '../api/redemptions/fixtures.js';
import { postgresForTests } from '../support/postgres.js';
import { postgresPair, rowsOf, setupCall, tally, via } from './postgres-pair.js';
import { lockOrder } from '../../src/db/locks.js';

const found = await postgresForTests();

/**
 * The read-then-write paths that lock first on PostgreSQL (db/locks.ts), raced across two
 * `promo serve` on one database: points spent across buckets, an expired session lock given
 * back by many requests at once, one order upserted from both servers, transfers both ways,
 * stacking rules changed from both servers.
 */
describe('lock-first paths on PostgreSQL across two promo serve processes', { skip: found.skip }, () => {
  const pair = postgresPair(() => found.server);
  const send = (i: number, method: string, path: string, body?: unknown) => via(pair, i, method, path, body);
  const rows = <T>(query: ReturnType<typeof sql<T>>) => rowsOf(pair, query);
  const call = (method: string, path: string, body?: unknown) => setupCall(pair, method, path, body);
  const member = async (program: string, source_id: string) =>
    call('POST', `/v1/loyalties/${program}/members`, { customer: { source_id } });
  const program = async (name: string) =>
    (await call('POST', '/v1/loyalties', { name, voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } }))
      .id as string;

  it('100 concurrent spends of 7 from 400 points in four buckets: 57 succeed, 1 is left, in the never-expiring bucket', async () => {
    const card = await member(await program('PG points'), 'pg-points');
    const add = (points: number, expiration: Record<string, string>) =>
      call('POST', `/v1/loyalties/members/${card.code}/balance`, { points, ...expiration });
    // Added out of expiry order: the draws follow the expiry, not the insert.
    await add(100, { expiration_type: 'NON_EXPIRING' });
    await add(100, { expiration_type: 'CUSTOM_DATE', expiration_date: '2032-01-01' });
    await add(100, { expiration_type: 'CUSTOM_DATE', expiration_date: '2030-01-01' });
    await add(100, { expiration_type: 'CUSTOM_DATE', expiration_date: '2031-01-01' });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        send(i, 'POST', `/v1/loyalties/members/${card.code}/balance`, { points: -7 }),
      ),
    );
    assert.deepEqual(tally(results), { '200 ok': 57, '400 loyalty_card_points_exceeded': 43 });
    assert.equal((await call('GET', `/v1/vouchers/${card.code}`)).loyalty_card.balance, 1);
    assert.deepEqual(
      await rows(sql`SELECT b.expires_on, b.total_points, coalesce(sum(d.points), 0) AS drawn
                     FROM points_buckets b LEFT JOIN points_draws d ON d.bucket_id = b.id
                     WHERE b.voucher_id = ${card.id} GROUP BY b.id, b.expires_on, b.total_points ORDER BY b.expires_on`),
      [
        { expires_on: '2030-01-01', total_points: 0, drawn: 100 },
        { expires_on: '2031-01-01', total_points: 0, drawn: 100 },
        { expires_on: '2032-01-01', total_points: 0, drawn: 100 },
        { expires_on: '9999-12-31', total_points: 1, drawn: 99 },
      ],
    );
    assert.deepEqual(
      await rows(sql`SELECT count(*) AS n, sum(delta) AS s FROM ledger_entries WHERE voucher_id = ${card.id}`),
      [{ n: 4 + 57, s: 1 }],
    );
  });

  it('an expired session lock released by 40 requests at once is given back once: another session keeps its unit', async () => {
    await percentVoucher(pair.setup, 'PG-SESSION', { redemption: { quantity: 2 } });
    await percentVoucher(pair.setup, 'PG-OTHER');
    const lock = (ttl: number, ttl_unit: string) =>
      call('POST', '/v1/validations', {
        order: { amount: 1000 },
        redeemables: [{ object: 'voucher', id: 'PG-SESSION' }],
        session: { type: 'LOCK', ttl, ttl_unit },
      });
    const short = (await lock(1, 'SECONDS')).session.key;
    const kept = (await lock(7, 'DAYS')).session.key;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // Validations of another voucher release what has expired, lazily, each in its transaction.
    const released = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        send(i, 'POST', '/v1/validations', {
          order: { amount: 1000 },
          redeemables: [{ object: 'voucher', id: 'PG-OTHER' }],
        }),
      ),
    );
    assert.deepEqual(tally(released), { '200 ok': 40 });
    assert.deepEqual(
      await rows(sql`SELECT redeemed_quantity, reserved_quantity FROM vouchers WHERE code = 'PG-SESSION'`),
      [{ redeemed_quantity: 0, reserved_quantity: 1 }],
    );
    assert.deepEqual(await rows(sql`SELECT key FROM session_locks WHERE key IN (${short}, ${kept}) ORDER BY key`), [
      { key: kept },
    ]);
    const redeemed = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(i, 'POST', '/v1/redemptions', {
          order: { amount: 1000 },
          redeemables: [{ object: 'voucher', id: 'PG-SESSION' }],
        }),
      ),
    );
    assert.deepEqual(tally(redeemed), { '200 ok': 1, '400 quantity_exceeded': 19 });
  });

  it("one order upserted 40 times at once from both servers: the customer's summary follows the stored order", async () => {
    const amounts = Array.from({ length: 40 }, (_, i) => 100 * (1 + (i % 7)));
    // A paid order counts in its customer's summary: each change moves it there by (before → after).
    const paid = { source_id: 'pg-order', status: 'PAID', customer: { source_id: 'pg-buyer' } };
    await call('POST', '/v1/orders', { ...paid, amount: 50 });
    const results = await Promise.all(amounts.map((amount, i) => send(i, 'POST', '/v1/orders', { ...paid, amount })));
    assert.deepEqual(tally(results), { '200 ok': 40 });
    const order = await call('GET', '/v1/orders/pg-order');
    const customer = await call('GET', '/v1/customers/pg-buyer');
    assert.deepEqual(
      { count: customer.summary.orders.total_count, amount: customer.summary.orders.total_amount },
      { count: 1, amount: order.amount },
    );
  });

  it('transfers both ways between two cards at once all succeed and move no point too many', async () => {
    const id = await program('PG transfers');
    const cards = [await member(id, 'pg-ann'), await member(id, 'pg-bob')];
    for (const card of cards) await call('POST', `/v1/loyalties/members/${card.code}/balance`, { points: 1000 });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const [to, from] = i % 2 === 0 ? cards : [cards[1], cards[0]];
        return send(i >> 1, 'POST', `/v1/loyalties/${id}/members/${to.code}/transfers`, [
          { code: from.code, points: 10 + (i % 2) },
        ]);
      }),
    );
    assert.deepEqual(tally(results), { '200 ok': 60 });
    assert.deepEqual(
      await rows(
        sql`SELECT code, loyalty_balance FROM vouchers WHERE id IN (${cards[0].id}, ${cards[1].id}) ORDER BY code`,
      ),
      [cards[0], cards[1]]
        .map((card, k) => ({ code: card.code as string, loyalty_balance: 1000 + (k === 0 ? -30 : 30) }))
        .sort((a, b) => lockOrder(a.code, b.code)),
    );
    assert.deepEqual(
      await rows(sql`SELECT type, count(*) AS n, sum(delta) AS s FROM ledger_entries
                     WHERE voucher_id IN (${cards[0].id}, ${cards[1].id}) AND type LIKE 'POINTS_TRANSFER%'
                     GROUP BY type ORDER BY type`),
      [
        { type: 'POINTS_TRANSFER_IN', n: 60, s: 630 },
        { type: 'POINTS_TRANSFER_OUT', n: 60, s: -630 },
      ],
    );
  });
  it('30 changes of three stacking-rules fields at once from both servers: every field lands', async () => {
    const changes = [
      { applicable_redeemables_limit: 4 },
      { redeemables_application_mode: 'PARTIAL' },
      { redeemables_sorting_rule: 'CATEGORY_HIERARCHY' },
    ];
    // The row exists first: every change then reads it and writes it back, merged.
    await call('PUT', '/v1/stacking-rules', { redeemables_limit: 30 });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => send(i, 'PUT', '/v1/stacking-rules', changes[i % 3])),
    );
    assert.deepEqual(tally(results), { '200 ok': 30 });
    const [stored] = await rows<{ rules: string }>(sql`SELECT rules FROM stacking_rules`);
    const rules = JSON.parse(stored?.rules ?? '{}');
    assert.deepEqual(
      [rules.applicable_redeemables_limit, rules.redeemables_application_mode, rules.redeemables_sorting_rule],
      [4, 'PARTIAL', 'CATEGORY_HIERARCHY'],
    );
  });
});
