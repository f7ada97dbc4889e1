import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { freshDatabase } from '../support/engine.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const CHILD = fileURLToPath(new URL('./loyalty-earning.child.ts', import.meta.url));
const T0 = '2026-03-02T10:00:00.000Z';

/** Runs the child script in its own Node process (tsx loaded) and parses its JSON line. */
function child(args: string[]): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (err += d));
    proc.on('error', reject);
    proc.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim()) as Record<string, number>)
        : reject(new Error(`child exited ${code}: ${err}`)),
    );
  });
}

/** A program with the rules given and one member, `racer`, on a server over `dbFile`; the card's code. */
async function programWithMember(server: TestServer, rules: unknown[]): Promise<string> {
  await server.request('POST', '/v1/loyalties', {
    body: { name: 'Race', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
  });
  const rulesRes = await server.request('POST', '/v1/loyalties/Race/earning-rules', { body: rules });
  assert.equal(rulesRes.status, 200, JSON.stringify(rulesRes.body));
  const member = await server.request('POST', '/v1/loyalties/Race/members', {
    body: { customer: { source_id: 'racer' } },
  });
  assert.equal(member.status, 200, JSON.stringify(member.body));
  return member.body.code as string;
}

const cardOf = (server: TestServer, code: string) =>
  sqliteOf(server.deps)
    .prepare('SELECT id, loyalty_points, loyalty_balance, loyalty_pending_points FROM vouchers WHERE code = ?')
    .get(code) as {
    id: string;
    loyalty_points: number;
    loyalty_balance: number;
    loyalty_pending_points: number;
  };
const ledgerOf = (server: TestServer, voucherId: string) =>
  sqliteOf(server.deps)
    .prepare('SELECT count(*) AS n, coalesce(sum(delta), 0) AS sum FROM ledger_entries WHERE voucher_id = ?')
    .get(voucherId) as { n: number; sum: number };

describe('loyalty earning across two processes', () => {
  it('loses no points when two processes pay orders of one card at once', async () => {
    const ORDERS = 30;
    const dbFile = await freshDatabase();
    const server = await startTestServer({ dbFile });
    try {
      // 13 points an order of 10.00: 3 fixed, 10 for every 1.00.
      const code = await programWithMember(server, [
        { event: 'order.paid', loyalty: { type: 'FIXED', points: 3 } },
        {
          event: 'order.paid',
          loyalty: {
            type: 'PROPORTIONAL',
            calculation_type: 'ORDER_AMOUNT',
            order: { amount: { every: 100, points: 1 } },
          },
        },
      ]);
      const startAt = String(Date.now() + 2500);
      const results = await Promise.all(['a', 'b'].map((tag) => child(['earn', dbFile, startAt, tag, String(ORDERS)])));
      assert.deepEqual(results, [{ paid: ORDERS }, { paid: ORDERS }]);
      const card = cardOf(server, code);
      assert.deepEqual(card, {
        id: card.id,
        loyalty_points: 2 * ORDERS * 13,
        loyalty_balance: 2 * ORDERS * 13,
        loyalty_pending_points: 0,
      });
      assert.deepEqual(
        ledgerOf(server, card.id),
        { n: 2 * ORDERS * 2, sum: 2 * ORDERS * 13 },
        'one ledger row per rule and order, summing to the balance',
      );
      const customer = await server.request('GET', '/v1/customers/racer');
      assert.equal(customer.body.loyalty.points, 2 * ORDERS * 13);
    } finally {
      await server.close();
    }
  });

  it('the pending-points sweep activates each due row once when two processes sweep at once', async () => {
    const ORDERS = 40;
    const dbFile = await freshDatabase();
    const server = await startTestServer({ dbFile, clock: fixedClock(T0) });
    try {
      const code = await programWithMember(server, [
        {
          event: 'order.paid',
          loyalty: { type: 'FIXED', points: 5 },
          pending_points: { period_type: 'DAY', period_value: 1 },
        },
      ]);
      for (let i = 0; i < ORDERS; i++) {
        const res = await server.request('POST', '/v1/orders', {
          body: {
            source_id: `p-${i}`,
            status: 'PAID',
            customer: { source_id: 'racer' },
            items: [{ quantity: 1, price: 100 }],
          },
        });
        assert.equal(res.status, 200);
      }
      assert.equal(cardOf(server, code).loyalty_pending_points, ORDERS * 5);
      const due = new Date(Date.parse(T0) + 86_400_000).toISOString();
      const startAt = String(Date.now() + 2500);
      const results = await Promise.all([0, 1].map(() => child(['sweep', dbFile, startAt, due])));
      assert.equal(
        results.reduce((n, r) => n + (r.activated ?? 0), 0),
        ORDERS,
        `activated by each: ${JSON.stringify(results)}`,
      );
      const card = cardOf(server, code);
      assert.deepEqual(card, {
        id: card.id,
        loyalty_points: ORDERS * 5,
        loyalty_balance: ORDERS * 5,
        loyalty_pending_points: 0,
      });
      const rows = sqliteOf(server.deps)
        .prepare('SELECT status, count(*) AS n FROM loyalty_pending_points GROUP BY status')
        .all();
      assert.deepEqual(rows, [{ status: 'ACTIVATED', n: ORDERS }]);
      const activations = sqliteOf(server.deps)
        .prepare("SELECT count(*) AS n FROM ledger_entries WHERE type = 'PENDING_POINTS_ACTIVATION'")
        .get();
      assert.deepEqual(activations, { n: ORDERS });
    } finally {
      await server.close();
    }
  });
});
