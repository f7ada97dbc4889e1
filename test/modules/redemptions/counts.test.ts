import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Deps } from '../../../src/app/deps.js';
import { insertRedemptions } from '../../../src/modules/redemptions/redemptions.repository.js';
import { failedRow, parentRow, rollbackRow } from '../../support/redemption-rows.js';
import { sqliteOf } from '../../support/sqlite.js';
import { openTestDeps } from '../../support/engine.js';

/**
 * sql/0018's counters (the list's unfiltered `total`) stay equal to a count of the table
 * through inserts, deletes and a change of result, each in the statement's own transaction.
 */
describe('redemption counters', () => {
  let deps: Deps;
  before(async () => {
    deps = await openTestDeps();
  });
  after(async () => deps.close());

  const at = '2026-01-01T00:00:00.000Z';
  const voucher = { id: 'v_1', code: 'C1', campaign: null };
  const counters = () =>
    sqliteOf(deps)
      // Summed per key: PostgreSQL spreads each counter over slots (docs/postgres.md), SQLite has one row.
      .prepare(
        'SELECT object, result, sum(total) AS total FROM redemption_counts GROUP BY object, result HAVING sum(total) > 0 ORDER BY object, result',
      )
      .all();
  const counted = () =>
    sqliteOf(deps)
      .prepare(
        'SELECT object, result, count(*) AS total FROM redemptions GROUP BY object, result ORDER BY object, result',
      )
      .all();

  it('counts each object and result as the table holds them', async () => {
    assert.deepEqual(counters(), []);
    await insertRedemptions(deps.db, [
      parentRow('r_1', { at, who: null, order: 'ord_1', children: [] }),
      parentRow('r_2', { at, who: null, order: 'ord_2', children: [] }),
      failedRow('rf_1', { at, who: null, voucher, code: 'voucher_expired', message: 'voucher expired' }),
      rollbackRow('rr_1', { at, who: null, of: 'r_1', order: 'ord_1', voucher, gift: 1 }),
    ]);
    assert.deepEqual(counters(), [
      { object: 'redemption', result: 'FAILURE', total: 1 },
      { object: 'redemption', result: 'SUCCESS', total: 2 },
      { object: 'redemption_rollback', result: 'SUCCESS', total: 1 },
    ]);
    sqliteOf(deps)
      .prepare("UPDATE redemptions SET result = 'FAILURE', status = 'FAILED', failure_code = 'x' WHERE id = 'r_2'")
      .run();
    sqliteOf(deps).prepare("DELETE FROM redemptions WHERE id = 'rr_1'").run();
    assert.deepEqual(counters(), [
      { object: 'redemption', result: 'FAILURE', total: 2 },
      { object: 'redemption', result: 'SUCCESS', total: 1 },
    ]);
    assert.deepEqual(counters(), counted());
  });
});
