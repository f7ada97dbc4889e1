import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { expireDueBuckets } from '../../src/modules/ledgers/points-expiry.sweep.js';
import { spawnServe, type SpawnedServer } from '../support/cli.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { loyaltyCard } from '../modules/ledgers/fixtures.js';
import { assertCardMatchesLedger } from '../modules/ledgers/recompute.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'ledger-race-app', PROMO_APP_TOKEN: 'ledger-race-token' };

/**
 * The ledger's guarded statements across two processes on one file: this one (the test
 * server) and a spawned `promo serve`. Requests alternate between them and all go at once.
 */
describe('the ledger across two processes', () => {
  let server: TestServer;
  let other: SpawnedServer;
  before(async () => {
    server = await startTestServer();
    other = await spawnServe(['--db', server.dbFile], ENV);
  });
  after(async () => {
    await other.stop('SIGTERM');
    await server.close();
  });

  const balanceVia = (i: number, code: string, points: number) =>
    i % 2 === 0
      ? server
          .request('POST', `/v1/loyalties/members/${code}/balance`, { body: { points } })
          .then((r) => [r.status, r.body.key ?? 'ok'])
      : other
          .request<{ key?: string }>('POST', `/v1/loyalties/members/${code}/balance`, { points })
          .then((r) => [r.status, r.body.key ?? 'ok']);
  const count = (results: unknown[][]) =>
    results.reduce<Record<string, number>>(
      (acc, [status, key]) => ({ ...acc, [`${status} ${key}`]: (acc[`${status} ${key}`] ?? 0) + 1 }),
      {},
    );
  const ledgerSum = (voucherId: string) =>
    sqliteOf(server.deps)
      .prepare('SELECT sum(delta) AS s, count(*) AS n FROM ledger_entries WHERE voucher_id = ?')
      .get(voucherId) as { s: number; n: number };

  it('100 concurrent removals of 30 from 1000 points: exactly 33 succeed and 10 are left', async () => {
    const { card } = await loyaltyCard(server, 'Race program', 'RACE-1', 1000);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => balanceVia(i, 'RACE-1', -30)));
    assert.deepEqual(count(results), { '200 ok': 33, '400 loyalty_card_points_exceeded': 67 });
    const voucher = await server.request('GET', '/v1/vouchers/RACE-1');
    assert.equal(voucher.body.loyalty_card.balance, 10);
    assert.deepEqual(ledgerSum(card.id), { s: 10, n: 34 });
    assertCardMatchesLedger(sqliteOf(server.deps), card.id);
  });

  it('100 concurrent credits lose nothing', async () => {
    const { card } = await loyaltyCard(server, 'Credit race program', 'RACE-2', 0);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => balanceVia(i, 'RACE-2', 7)));
    assert.deepEqual(count(results), { '200 ok': 100 });
    assert.deepEqual(ledgerSum(card.id), { s: 700, n: 100 });
    assertCardMatchesLedger(sqliteOf(server.deps), card.id);
  });

  it('expires each due bucket once with both processes sweeping', async () => {
    // Cards whose opening points (40 of 100) expired long ago; the spawned server sweeps on
    // its own (at start, then every minute) and this process sweeps at the same time.
    const { campaign } = await loyaltyCard(server, 'Sweep race program', 'RACE-3-SEED', 0);
    const cards = 3000;
    const insert = sqliteOf(
      server.deps,
    ).prepare(`INSERT INTO vouchers (id, code, campaign_id, type, loyalty_points, loyalty_balance, loyalty_next_expiration_date,
      loyalty_next_expiration_points, loyalty_pending_points, loyalty_expired_points, loyalty_subtracted_points, created_at) VALUES (?, ?, ?, 'LOYALTY_CARD', 100, 100, '2020-06-01', 40, 0, 0, 0, '2020-01-01T00:00:00.000Z')`);
    sqliteOf(server.deps).transaction(() => {
      for (let i = 0; i < cards; i++)
        insert.run(`v_sweeprace${String(i).padStart(5, '0')}`, `RACE-3-${i}`, campaign.id);
    })();
    const sweeper = await spawnServe(['--db', server.dbFile], ENV);
    await expireDueBuckets({ ...server.deps, clock: fixedClock(new Date()) }, undefined, 50);
    // The spawned sweeper's round started with its listening line; wait for it to finish.
    const due = sqliteOf(server.deps).prepare(
      "SELECT count(*) AS n FROM points_buckets WHERE status = 'ACTIVE' AND expires_on < '2026-01-01'",
    );
    for (let waited = 0; (due.get() as { n: number }).n > 0 && waited < 30_000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    await sweeper.stop('SIGTERM');
    const expiries = sqliteOf(server.deps)
      .prepare(`SELECT count(*) AS n, count(DISTINCT voucher_id) AS cards, sum(delta) AS s FROM ledger_entries
      WHERE type = 'POINTS_EXPIRATION' AND voucher_id LIKE 'v_sweeprace%'`)
      .get();
    assert.deepEqual(expiries, { n: cards, cards, s: -40 * cards });
    assert.deepEqual(
      sqliteOf(server.deps)
        .prepare(
          "SELECT count(*) AS n FROM points_draws d JOIN points_buckets b ON b.id = d.bucket_id WHERE b.expires_on = '2020-06-01'",
        )
        .get(),
      { n: cards },
    );
    assertCardMatchesLedger(sqliteOf(server.deps), 'v_sweeprace00000');
    assertCardMatchesLedger(sqliteOf(server.deps), `v_sweeprace${String(cards - 1).padStart(5, '0')}`);
  });
});
