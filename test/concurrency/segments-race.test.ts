import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alternately, twoProcesses } from '../support/two-processes.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'segments-race-app', PROMO_APP_TOKEN: 'segments-race-token' };
const CUSTOMERS = 10;
const WRITES_PER_CUSTOMER = 4;

/**
 * Customers entering one auto-update segment through two processes on one file (this one and
 * a spawned `promo serve`): each customer is updated four times at once, two through each
 * process, every update matching the segment's filter. Each customer enters once: one
 * membership row, one `customer.segment.entered` activity, one ledger row of the segment's
 * earning rule on its card.
 */
describe('customers entering a segment across two processes', () => {
  const pair = twoProcesses(ENV);

  it('enters each customer once, with one activity and one credit each', async () => {
    const { server } = pair;
    const post = async (path: string, body: unknown) => {
      const res = await server.request('POST', path, { body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    const segment = await post('/v1/segments', {
      name: 'Vip',
      type: 'auto-update',
      filter: { junction: 'and', 'metadata.vip': { conditions: { $is: [true] } } },
    });
    assert.equal(segment.initial_sync_status, 'DONE');
    await post('/v1/loyalties', { name: 'Club', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    await post('/v1/loyalties/Club/earning-rules', [
      { event: 'customer.segment.entered', segment: { id: segment.id }, loyalty: { type: 'FIXED', points: 10 } },
    ]);
    for (let c = 0; c < CUSTOMERS; c++)
      await post('/v1/loyalties/Club/members', { customer: { source_id: `race-${c}`, metadata: { vip: false } } });

    const writes = Array.from({ length: CUSTOMERS * WRITES_PER_CUSTOMER }, (_, i) => {
      const c = i % CUSTOMERS;
      return alternately(pair, i, 'PUT', `/v1/customers/race-${c}`, { metadata: { vip: true, write: i } });
    });
    const answers = await Promise.all(writes);
    assert.deepEqual(
      answers.filter((a) => a.status !== 200),
      [],
    );

    const sqlite = sqliteOf(server.deps);
    const members = sqlite.prepare('SELECT count(*) AS n FROM segment_members WHERE segment_id = ?').get(segment.id);
    assert.deepEqual(members, { n: CUSTOMERS });
    const entries = sqlite
      .prepare(
        "SELECT customer_id, count(*) AS n FROM customer_events WHERE type = 'customer.segment.entered' GROUP BY customer_id",
      )
      .all() as Array<{ n: number }>;
    assert.deepEqual(
      entries.map((e) => e.n),
      Array(CUSTOMERS).fill(1),
    );
    const credits = sqlite
      .prepare(
        "SELECT voucher_id, count(*) AS n, sum(delta) AS points FROM ledger_entries WHERE type = 'POINTS_ACCRUAL' GROUP BY voucher_id",
      )
      .all() as Array<{ n: number; points: number }>;
    assert.deepEqual(
      credits.map(({ n, points }) => ({ n, points })),
      Array(CUSTOMERS).fill({ n: 1, points: 10 }),
    );
  });
});
