import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alternately, twoProcesses, type Answer } from '../support/two-processes.js';
import { assertCardMatchesLedger } from '../modules/ledgers/recompute.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'loyalty-states-race-app', PROMO_APP_TOKEN: 'loyalty-states-race-token' };

/**
 * Loyalty state transitions under concurrent requests through two `promo serve` processes on
 * one file, requests alternating between them and all sent at once: each pending-points row
 * ends once (activated, canceled by hand or by its order's cancel), and a card's tier follows
 * its ledger move by move, each move stored and announced exactly once.
 */
describe('loyalty state transitions across two processes', () => {
  const pair = twoProcesses(ENV);

  const send = (i: number, method: string, path: string, body?: unknown): Promise<Answer> =>
    alternately(pair, i, method, path, body);
  const all = <T>(sql: string, ...params: unknown[]): T[] =>
    sqliteOf(pair.server.deps)
      .prepare(sql)
      .all(...params) as T[];
  const one = <T>(sql: string, ...params: unknown[]): T =>
    sqliteOf(pair.server.deps)
      .prepare(sql)
      .get(...params) as T;

  /** A program with the given tiers and earning rules, and one member; the card's code and id. */
  async function program(
    name: string,
    customer: string,
    setup: { tiers?: unknown[]; rules?: unknown[] },
  ): Promise<{ code: string; id: string; customerId: string }> {
    const { server } = pair;
    const created = await server.request('POST', '/v1/loyalties', {
      body: { name, voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
    });
    assert.equal(created.status, 200, created.text);
    if (setup.tiers)
      assert.equal(
        (await server.request('POST', `/v1/loyalties/${created.body.id}/tiers`, { body: setup.tiers })).status,
        200,
      );
    if (setup.rules)
      assert.equal(
        (await server.request('POST', `/v1/loyalties/${created.body.id}/earning-rules`, { body: setup.rules })).status,
        200,
      );
    const member = await server.request('POST', `/v1/loyalties/${created.body.id}/members`, {
      body: { customer: { source_id: customer } },
    });
    assert.equal(member.status, 200, member.text);
    return { code: member.body.code, id: member.body.id, customerId: member.body.holder_id };
  }

  it('ends each pending-points row once under racing activations, cancels and order cancels', async () => {
    const ROWS = 12;
    const card = await program('Pending race', 'pender', {
      rules: [
        {
          event: 'order.paid',
          loyalty: { type: 'FIXED', points: 5 },
          pending_points: { period_type: 'DAY', period_value: 30 },
        },
      ],
    });
    for (let i = 0; i < ROWS; i++) {
      const order = await pair.server.request('POST', '/v1/orders', {
        body: { source_id: `pending-${i}`, status: 'PAID', customer: { source_id: 'pender' }, amount: 1000 },
      });
      assert.equal(order.status, 200, order.text);
    }
    const rows = all<{ id: string; order_source: string }>(
      'SELECT p.id, o.source_id AS order_source FROM loyalty_pending_points p JOIN orders o ON o.id = p.order_id WHERE p.voucher_id = ? ORDER BY p.id',
      card.id,
    );
    assert.equal(rows.length, ROWS);
    const base = `/v1/loyalties/members/${card.code}/pending-points`;
    // Each row's 7 requests, in an order rotated row by row: each kind goes first for some rows.
    const requests = rows.flatMap((row, r) => {
      const mine = [
        ...[0, 1, 2].map((k) => ({
          kind: 'activate',
          row,
          go: () => send(r + k, 'POST', `${base}/${row.id}/activate`),
        })),
        ...[0, 1, 2].map((k) => ({
          kind: 'cancel',
          row,
          go: () => send(r + k + 1, 'POST', `${base}/${row.id}/cancel`),
        })),
        { kind: 'order', row, go: () => send(r, 'PUT', `/v1/orders/${row.order_source}`, { status: 'CANCELED' }) },
      ];
      const first = [0, 3, 6][r % 3] as number;
      return [...mine.slice(first), ...mine.slice(0, first)];
    });
    const answers = await Promise.all(requests.map(async (q) => ({ ...q, answer: await q.go() })));

    const ended = all<{ id: string; status: string }>(
      'SELECT id, status FROM loyalty_pending_points WHERE voucher_id = ? ORDER BY id',
      card.id,
    );
    for (const row of rows) {
      const mine = answers.filter((a) => a.row === row);
      assert.ok(
        mine.filter((a) => a.kind === 'order').every((a) => a.answer.status === 200),
        'an order cancel always succeeds',
      );
      const status = ended.find((e) => e.id === row.id)?.status;
      const won = mine.filter((a) => a.kind !== 'order' && a.answer.status < 300);
      // The order's cancel ends the row when no manual request got it first.
      assert.ok(won.length <= 1, `${row.id}: ${won.length} manual winners`);
      assert.equal(status, won[0]?.kind === 'activate' ? 'ACTIVATED' : 'CANCELED', row.id);
      for (const lost of mine.filter((a) => a.kind !== 'order' && a.answer.status >= 300)) {
        const { request_id: requestId, ...rest } = lost.answer.body;
        assert.match(requestId, /\S/);
        const verb = lost.kind === 'activate' ? 'activated' : 'canceled';
        assert.deepEqual(rest, {
          code: 400,
          key: 'invalid_pending_points_state',
          message: 'Invalid pending points state',
          details: `Only pending points in 'PENDING' status can be ${verb}. Current status: '${status}'.`,
        });
      }
    }
    const activated = ended.filter((e) => e.status === 'ACTIVATED').length;
    assert.ok(activated > 0 && activated < ROWS, `some rows of each ending (activated ${activated})`);
    assert.deepEqual(
      one('SELECT loyalty_points, loyalty_balance, loyalty_pending_points FROM vouchers WHERE id = ?', card.id),
      {
        loyalty_points: 5 * activated,
        loyalty_balance: 5 * activated,
        loyalty_pending_points: 0,
      },
    );
    assert.deepEqual(
      one(
        "SELECT count(*) AS n, coalesce(sum(delta), 0) AS s FROM ledger_entries WHERE voucher_id = ? AND type = 'PENDING_POINTS_ACTIVATION'",
        card.id,
      ),
      { n: activated, s: 5 * activated },
    );
    const events = all<{ type: string; n: number }>(
      "SELECT type, count(*) AS n FROM customer_events WHERE customer_id = ? AND type LIKE 'customer.voucher.loyalty_card.pending_points.%' GROUP BY type ORDER BY type",
      card.customerId,
    );
    assert.deepEqual(events, [
      { type: 'customer.voucher.loyalty_card.pending_points.activated', n: activated },
      { type: 'customer.voucher.loyalty_card.pending_points.added', n: ROWS },
      { type: 'customer.voucher.loyalty_card.pending_points.canceled', n: ROWS - activated },
    ]);
    assertCardMatchesLedger(sqliteOf(pair.server.deps), card.id);
  });

  it("moves a card's tier with every racing balance change, each move stored and announced once", async () => {
    const tiers = [
      { name: 'Bronze', points: { from: 10, to: 99 } },
      { name: 'Silver', points: { from: 100, to: 499 } },
      { name: 'Gold', points: { from: 500 } },
    ];
    const card = await program('Tier race', 'climber', { tiers });
    const change = (points: number, i: number) =>
      send(i, 'POST', `/v1/loyalties/members/${card.code}/balance`, { points });
    assert.equal((await change(50, 0)).status, 200); // Bronze
    // Waves of six racing changes across both servers, up 6 x 90 (50 -> 590: Silver, then Gold)
    // and down again. Racing transactions take the card in no promised order (PostgreSQL's pool
    // runs a server's requests side by side), so every wave goes one way: whatever the order
    // inside it, each wave moves the tier twice, and no debit can find the balance short.
    const answers: Answer[] = [];
    for (let wave = 0; wave < 10; wave++) {
      const points = wave % 2 === 0 ? 90 : -90;
      answers.push(...(await Promise.all(Array.from({ length: 6 }, (_, i) => change(points, i)))));
    }
    assert.ok(
      answers.every((a) => a.status === 200),
      JSON.stringify(answers.find((a) => a.status !== 200)),
    );

    // The tier each ledger row's balance puts the card in, replayed in commit order, gives the moves.
    const tierOf = (balance: number) =>
      tiers.find((t) => balance >= t.points.from && (t.points.to === undefined || balance <= t.points.to))?.name ??
      null;
    const expected: Array<[string, string | null, string | null]> = [];
    let held: string | null = null;
    const balances = all<{ balance: number }>(
      'SELECT balance FROM ledger_entries WHERE voucher_id = ? ORDER BY seq',
      card.id,
    ).map((row) => row.balance);
    for (const balance of balances) {
      const next = tierOf(balance);
      if (next === held) continue;
      const order = (name: string | null) => tiers.findIndex((t) => t.name === name);
      const move =
        held === null ? 'joined' : next === null ? 'left' : order(next) > order(held) ? 'upgraded' : 'downgraded';
      expected.push([move, held, next]);
      held = next;
    }
    assert.equal(expected.length, 21, `joined, then two moves a wave (${balances})`);
    const tierName = (t: { name?: string } | undefined) => t?.name ?? null;
    const announced = all<{ type: string; data: string }>(
      "SELECT type, data FROM customer_events WHERE customer_id = ? AND type LIKE 'customer.loyalty.tier.%' ORDER BY seq",
      card.customerId,
    ).map((e) => {
      const data = JSON.parse(e.data) as Record<string, { name?: string }>;
      const move = e.type.replace('customer.loyalty.tier.', '');
      const from = move === 'joined' ? null : tierName(data.loyalty_tier_from ?? data.loyalty_tier);
      return [move, from, move === 'left' ? null : tierName(data.loyalty_tier_to)];
    });
    assert.deepEqual(announced, expected);
    const stored = one<{ name: string } | undefined>(
      'SELECT t.name FROM loyalty_member_tiers m JOIN loyalty_tiers t ON t.id = m.tier_id WHERE m.voucher_id = ?',
      card.id,
    );
    const summary = one<{ name: string | null }>(
      'SELECT t.name FROM customer_loyalty_campaigns c LEFT JOIN loyalty_tiers t ON t.id = c.loyalty_tier WHERE c.customer_id = ?',
      card.customerId,
    );
    assert.deepEqual([stored?.name ?? null, summary.name], [held, held]);
    assertCardMatchesLedger(sqliteOf(pair.server.deps), card.id);
  });
});
