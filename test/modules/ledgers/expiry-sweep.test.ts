import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jobRegistry } from '../../../src/root/job-registry.js';
import { sweepRegistry } from '../../../src/root/sweep-registry.js';
import { startJobRunner } from '../../../src/jobs/runner.js';
import { startSweeps } from '../../../src/jobs/sweeps.js';
import { internalActor } from '../../../src/lib/actor.js';
import { fixedClock } from '../../../src/lib/clock.js';
import {
  assignCardHolder,
  creditPoints,
  debitPoints,
  onPointsChanged,
  type PointsChanged,
} from '../../../src/modules/ledgers/index.js';
import { expireDueBuckets } from '../../../src/modules/ledgers/points-expiry.sweep.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { customer, loyaltyCard } from './fixtures.js';
import { assertCardMatchesLedger } from './recompute.js';
import { sqliteOf } from '../../support/sqlite.js';

const START = '2026-03-15T12:00:00.000Z';

/** The points-expiry sweep under an injected clock, and the periodic-sweep facility that runs it. */
describe('the points-expiry sweep', () => {
  const clock = fixedClock(START);
  let server: TestServer;
  let card: { id: string };
  let holder: { id: string };
  before(async () => {
    server = await startTestServer({ clock });
    card = (await loyaltyCard(server, 'Expiring program', 'EXP-1', 0)).card;
    holder = await customer(server, 'expiring-holder');
    const base = { voucherId: card.id, actor: internalActor(), at: START };
    await server.deps.db.transaction().execute(async (trx) => {
      await assignCardHolder(server.deps, trx, {
        voucherId: card.id,
        customerId: holder.id,
        at: START,
        actor: internalActor(),
      });
      await creditPoints(server.deps, trx, {
        ...base,
        amount: 20,
        expiration: { type: 'CUSTOM_DATE', date: '2026-03-20' },
      });
      await creditPoints(server.deps, trx, {
        ...base,
        amount: 30,
        expiration: { type: 'CUSTOM_DATE', date: '2026-04-01' },
      });
      await creditPoints(server.deps, trx, { ...base, amount: 50, expiration: { type: 'NON_EXPIRING' } });
      await debitPoints(server.deps, trx, { ...base, amount: 5 });
    });
  });
  after(async () => server.close());

  const rows = (sql: string, ...params: unknown[]) =>
    sqliteOf(server.deps)
      .prepare(sql)
      .all(...params);
  const expirations = () =>
    rows(
      "SELECT delta, balance, total, operation_type, created_at FROM ledger_entries WHERE voucher_id = ? AND type = 'POINTS_EXPIRATION' ORDER BY seq",
      card.id,
    );

  it('expires nothing on the last day a bucket counts', async () => {
    clock.set('2026-03-20T23:59:59.999Z');
    const loop = startSweeps(server.deps, sweepRegistry);
    await loop.stop(); // the round it ran at start
    assert.deepEqual(expirations(), []);
  });

  it('expires what is left of a bucket the day after, once, on start and on demand', async () => {
    clock.set('2026-03-21T00:00:00.000Z');
    const loop = startSweeps(server.deps, sweepRegistry);
    await loop.runNow();
    await loop.runNow();
    await loop.stop();
    assert.deepEqual(expirations(), [
      { delta: -15, balance: 80, total: 100, operation_type: 'AUTOMATIC', created_at: '2026-03-21T00:00:00.000Z' },
    ]);
    assert.deepEqual(
      rows(
        'SELECT expires_on, status, total_points, expired_points FROM points_buckets WHERE voucher_id = ? ORDER BY expires_on',
        card.id,
      ),
      [
        { expires_on: '2026-03-20', status: 'EXPIRED', total_points: 0, expired_points: 15 },
        { expires_on: '2026-04-01', status: 'ACTIVE', total_points: 30, expired_points: 0 },
        { expires_on: '9999-12-31', status: 'ACTIVE', total_points: 50, expired_points: 0 },
      ],
    );
    const voucher = await server.request('GET', '/v1/vouchers/EXP-1');
    assert.deepEqual(voucher.body.loyalty_card, {
      points: 100,
      balance: 80,
      next_expiration_date: '2026-04-01',
      next_expiration_points: 30,
      pending_points: 0,
      expired_points: 15,
      subtracted_points: 5,
    });
    assertCardMatchesLedger(sqliteOf(server.deps), card.id);
    assert.deepEqual(rows('SELECT loyalty_points FROM customers WHERE id = ?', holder.id), [{ loyalty_points: 80 }]);
    const events = await server.request(
      'GET',
      `/v1/customers/${holder.id}/activity?type=customer.voucher.loyalty_card.points_expired`,
    );
    assert.deepEqual(
      events.body.data.map((e: { type: string; data: { data: { balance: unknown } } }) => [
        e.type,
        e.data.data.balance,
      ]),
      [
        [
          'customer.voucher.loyalty_card.points_expired',
          {
            points: -15,
            total: 100,
            balance: 80,
            type: 'loyalty_card',
            object: 'balance',
            related_object: { type: 'voucher', id: card.id },
            operation_type: 'AUTOMATIC',
          },
        ],
      ],
    );
  });

  it('runs from the job runner, which sweeps at start and when asked', async () => {
    clock.set('2026-04-02T08:00:00.000Z');
    const runner = startJobRunner(server.deps, {
      workers: 1,
      registry: { ...jobRegistry, types: {} },
      sweeps: sweepRegistry,
    });
    await runner.sweepNow();
    await runner.stop();
    assert.deepEqual(
      expirations().map((e) => (e as { delta: number }).delta),
      [-15, -30],
    );
    assertCardMatchesLedger(sqliteOf(server.deps), card.id);
  });

  it('ends after the batch in progress once told to stop, and the next run carries on', async () => {
    const { campaign } = await loyaltyCard(server, 'Stopping program', 'STOP-SEED', 0);
    const insert = sqliteOf(
      server.deps,
    ).prepare(`INSERT INTO vouchers (id, code, campaign_id, type, loyalty_points, loyalty_balance, loyalty_next_expiration_date,
      loyalty_next_expiration_points, loyalty_pending_points, loyalty_expired_points, loyalty_subtracted_points, created_at) VALUES (?, ?, ?, 'LOYALTY_CARD', 5, 5, '2026-04-01', 5, 0, 0, 0, ?)`);
    for (let i = 0; i < 25; i++) insert.run(`v_stopping${String(i).padStart(8, '0')}`, `STOP-${i}`, campaign.id, START);
    const stopped = new AbortController();
    stopped.abort();
    assert.equal(await expireDueBuckets(server.deps, stopped.signal, 10), 10);
    assert.equal(await expireDueBuckets(server.deps, undefined, 10), 15);
  });

  it('expires a batch set-based: a row per bucket, one shift and one seam per card, one loyalty change per holder', async () => {
    const at = '2026-05-01T00:00:00.000Z';
    clock.set(at);
    const { campaign, card: first } = await loyaltyCard(server, 'Multi-bucket program', 'MB-1', 0);
    const second = (await server.request('POST', `/v1/campaigns/${campaign.id}/vouchers`, { body: { code: 'MB-2' } }))
      .body as { id: string };
    const owner = await customer(server, 'multi-bucket-holder');
    await server.deps.db.transaction().execute(async (trx) => {
      const credit = (voucherId: string, amount: number, date: string | null) =>
        creditPoints(server.deps, trx, {
          voucherId,
          amount,
          actor: internalActor(),
          at,
          expiration: date ? { type: 'CUSTOM_DATE', date } : { type: 'NON_EXPIRING' },
        });
      for (const id of [first.id, second.id])
        await assignCardHolder(server.deps, trx, { voucherId: id, customerId: owner.id, at, actor: internalActor() });
      await credit(first.id, 20, '2026-05-05');
      await credit(first.id, 10, '2026-05-03');
      await credit(first.id, 5, null);
      await credit(first.id, 8, '2026-06-30');
      await credit(second.id, 7, '2026-05-04');
    });
    const fired: PointsChanged[] = [];
    const unsubscribe = onPointsChanged(server.deps.seams, async (_trx, change) => void fired.push(change));
    clock.set('2026-05-10T06:00:00.000Z');
    try {
      assert.equal(await expireDueBuckets(server.deps), 3);
    } finally {
      unsubscribe();
    }
    const expiredRows = (id: string) =>
      rows(
        "SELECT delta, balance, total, operation_type, bucket_id FROM ledger_entries WHERE voucher_id = ? AND type = 'POINTS_EXPIRATION' ORDER BY seq",
        id,
      );
    const row = (delta: number, balance: number, total: number) => ({
      delta,
      balance,
      total,
      operation_type: 'AUTOMATIC',
      bucket_id: null,
    });
    assert.deepEqual(expiredRows(first.id), [row(-10, 33, 43), row(-20, 13, 43)]);
    assert.deepEqual(expiredRows(second.id), [row(-7, 0, 7)]);
    assert.deepEqual(
      rows(
        "SELECT v.code, b.expires_on, d.points FROM points_draws d JOIN ledger_entries e ON e.id = d.entry_id JOIN points_buckets b ON b.id = d.bucket_id JOIN vouchers v ON v.id = e.voucher_id WHERE e.type = 'POINTS_EXPIRATION' AND e.voucher_id IN (?, ?) ORDER BY v.code, e.seq",
        first.id,
        second.id,
      ),
      [
        { code: 'MB-1', expires_on: '2026-05-03', points: 10 },
        { code: 'MB-1', expires_on: '2026-05-05', points: 20 },
        { code: 'MB-2', expires_on: '2026-05-04', points: 7 },
      ],
    );
    const seamOf = (voucherId: string, delta: number, balance: number) => ({
      voucherId,
      campaignId: campaign.id,
      customerId: owner.id,
      delta,
      balance,
      type: 'POINTS_EXPIRATION',
      at: '2026-05-10T06:00:00.000Z',
    });
    assert.deepEqual(
      fired.map(({ actor: _actor, ...change }) => change).sort((a, b) => a.voucherId.localeCompare(b.voucherId)),
      [seamOf(first.id, -30, 13), seamOf(second.id, -7, 0)].sort((a, b) => a.voucherId.localeCompare(b.voucherId)),
    );
    for (const id of [first.id, second.id]) assertCardMatchesLedger(sqliteOf(server.deps), id);
    const voucher = await server.request('GET', '/v1/vouchers/MB-1');
    assert.deepEqual(voucher.body.loyalty_card, {
      points: 43,
      balance: 13,
      next_expiration_date: '2026-06-30',
      next_expiration_points: 8,
      pending_points: 0,
      expired_points: 30,
      subtracted_points: 0,
    });
    assert.deepEqual(rows('SELECT loyalty_points FROM customers WHERE id = ?', owner.id), [{ loyalty_points: 13 }]);
    assert.deepEqual(
      rows(
        'SELECT points FROM customer_loyalty_campaigns WHERE customer_id = ? AND campaign_id = ?',
        owner.id,
        campaign.id,
      ),
      [{ points: 13 }],
    );
    const events = await server.request(
      'GET',
      `/v1/customers/${owner.id}/activity?type=customer.voucher.loyalty_card.points_expired`,
    );
    const balances = events.body.data.map((e: { data: { data: { balance: { points: number; balance: number } } } }) => [
      e.data.data.balance.points,
      e.data.data.balance.balance,
    ]);
    assert.deepEqual(
      balances.sort(),
      [
        [-10, 33],
        [-20, 13],
        [-7, 0],
      ].sort(),
    );
  });

  it('logs a sweep that fails and still runs the others', async () => {
    const failing = {
      name: 'broken',
      run: async () => {
        throw new Error('nothingHere: no such sweep');
      },
    };
    const before = server.logLines.length;
    const loop = startSweeps(server.deps, [failing, ...sweepRegistry]);
    await loop.stop();
    const errors = server.logLines.slice(before).filter((line) => line.level === 'error');
    assert.deepEqual(
      errors.map((line) => [line.msg, line.sweep, line.err?.type, line.err?.message.slice(0, 40)]),
      [['sweep failed', 'broken', 'Error', 'nothingHere: no such sweep']],
    );
  });
});
