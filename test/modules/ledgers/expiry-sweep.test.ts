import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sweepRegistry } from '../../../src/app/sweep-registry.js';
import { startJobRunner } from '../../../src/jobs/runner.js';
import { startSweeps } from '../../../src/jobs/sweeps.js';
import { internalActor } from '../../../src/lib/actor.js';
import { fixedClock } from '../../../src/lib/clock.js';
import { assignCardHolder, creditPoints, debitPoints } from '../../../src/modules/ledgers/index.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { customer, loyaltyCard } from './fixtures.js';
import { assertCardMatchesLedger } from './recompute.js';

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
      await assignCardHolder(trx, { voucherId: card.id, customerId: holder.id, at: START });
      await creditPoints(server.deps, trx, { ...base, amount: 20, expiration: { type: 'CUSTOM_DATE', date: '2026-03-20' } });
      await creditPoints(server.deps, trx, { ...base, amount: 30, expiration: { type: 'CUSTOM_DATE', date: '2026-04-01' } });
      await creditPoints(server.deps, trx, { ...base, amount: 50, expiration: { type: 'NON_EXPIRING' } });
      await debitPoints(server.deps, trx, { ...base, amount: 5 });
    });
  });
  after(async () => server.close());

  const rows = (sql: string, ...params: unknown[]) => server.deps.sqlite.prepare(sql).all(...params);
  const expirations = () => rows("SELECT delta, balance, total, operation_type, created_at FROM ledger_entries WHERE voucher_id = ? AND type = 'POINTS_EXPIRATION' ORDER BY seq", card.id);

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
    assert.deepEqual(expirations(), [{ delta: -15, balance: 80, total: 100, operation_type: 'AUTOMATIC', created_at: '2026-03-21T00:00:00.000Z' }]);
    assert.deepEqual(rows('SELECT expires_on, status, total_points, expired_points FROM points_buckets WHERE voucher_id = ? ORDER BY expires_on', card.id), [
      { expires_on: '2026-03-20', status: 'EXPIRED', total_points: 0, expired_points: 15 },
      { expires_on: '2026-04-01', status: 'ACTIVE', total_points: 30, expired_points: 0 },
      { expires_on: '9999-12-31', status: 'ACTIVE', total_points: 50, expired_points: 0 },
    ]);
    const voucher = await server.request('GET', '/v1/vouchers/EXP-1');
    assert.deepEqual(voucher.body.loyalty_card, {
      points: 100, balance: 80, next_expiration_date: '2026-04-01', next_expiration_points: 30, pending_points: 0, expired_points: 15, subtracted_points: 5,
    });
    assertCardMatchesLedger(server.deps.sqlite, card.id);
    assert.deepEqual(rows('SELECT loyalty_points FROM customers WHERE id = ?', holder.id), [{ loyalty_points: 80 }]);
    const events = await server.request('GET', `/v1/customers/${holder.id}/activity?type=customer.voucher.loyalty_card.points_expired`);
    assert.deepEqual(events.body.data.map((e: { type: string; data: { data: { balance: unknown } } }) => [e.type, e.data.data.balance]), [
      ['customer.voucher.loyalty_card.points_expired', { points: -15, total: 100, balance: 80, type: 'loyalty_card', object: 'balance', related_object: { type: 'voucher', id: card.id }, operation_type: 'AUTOMATIC' }],
    ]);
  });

  it('runs from the job runner, which sweeps at start and when asked', async () => {
    clock.set('2026-04-02T08:00:00.000Z');
    const runner = startJobRunner(server.deps, { workers: 1, registry: {}, sweeps: sweepRegistry });
    await runner.sweepNow();
    await runner.stop();
    assert.deepEqual(expirations().map((e) => (e as { delta: number }).delta), [-15, -30]);
    assertCardMatchesLedger(server.deps.sqlite, card.id);
  });

  it('logs a sweep that fails and still runs the others', async () => {
    const failing = { name: 'broken', run: { module: new URL('./fixtures.js', import.meta.url).href, export: 'nothingHere' } };
    const before = server.logged.length;
    const loop = startSweeps(server.deps, [failing, ...sweepRegistry]);
    await loop.stop();
    assert.deepEqual(server.logged.slice(before).map((line) => line.split('\n')[0]?.slice(0, 60)), [
      `sweep broken failed Error: nothingHere of ${failing.run.module}`.slice(0, 60),
    ]);
  });
});
