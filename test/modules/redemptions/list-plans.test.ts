import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Deps } from '../../../src/app/deps.js';
import { createDeps } from '../../../src/root/create-deps.js';
import { REDEMPTION_LIST_ORDERS } from '../../../src/lib/enums.js';
import { freshDbFile } from '../../support/db.js';
import { explain, planProblems } from '../../support/query-plans.js';
import { sqliteOf } from '../../support/sqlite.js';
import { sqliteOnly } from '../../support/engine.js';

/**
 * The redemptions table's indexes (sql/0015; result and object: sql/0033, which the list reads
 * with literals) against the reference's "List Redemptions", before its
 * endpoint exists: each order both ways, and each filter ordered by created_at, is read by
 * walking one index (no table scan, no temporary sort), as the list will run them. Also a
 * voucher's redemptions (GET /v1/vouchers/{code}/redemption).
 */
describe(
  'the redemptions table serves every list order and filter from an index',
  sqliteOnly('EXPLAIN QUERY PLAN of SQLite'),
  () => {
    let deps: Deps;
    before(() => {
      deps = createDeps({ dbFile: freshDbFile() });
    });
    after(() => deps.close());

    const base = () => deps.db.selectFrom('redemptions').selectAll().limit(10).offset(100);
    const check = (query: ReturnType<typeof base>) =>
      assert.deepEqual(planProblems(explain(sqliteOf(deps), query.compile())), []);

    for (const field of REDEMPTION_LIST_ORDERS) {
      for (const direction of ['asc', 'desc'] as const) {
        it(`orders by ${direction === 'desc' ? '-' : ''}${field}`, () => {
          // Ties: by date, then insertion order (created_at itself: insertion order only).
          if (field === 'id') return check(base().orderBy('id', direction));
          if (field === 'created_at') return check(base().orderBy('created_at', direction).orderBy('seq', direction));
          check(base().orderBy(field, direction).orderBy('created_at', direction).orderBy('seq', direction));
        });
      }
    }

    const filters = {
      result: (q: ReturnType<typeof base>) => q.where('result', '=', sql.lit('FAILURE')),
      campaign_name: (q: ReturnType<typeof base>) => q.where('campaign_name', '=', 'Summer'),
      customer_id: (q: ReturnType<typeof base>) => q.where('customer_id', '=', 'cust_1'),
      voucher_code: (q: ReturnType<typeof base>) => q.where('voucher_code', '=', 'CODE'),
      related_object_id: (q: ReturnType<typeof base>) => q.where('related_object_id', '=', 'v_1'),
      related_object_parent_id: (q: ReturnType<typeof base>) => q.where('related_object_parent_id', '=', 'camp_1'),
      parent_redemption_id: (q: ReturnType<typeof base>) => q.where('parent_id', '=', 'r_1'),
      failure_code: (q: ReturnType<typeof base>) => q.where('failure_code', '=', 'quantity_exceeded'),
      object: (q: ReturnType<typeof base>) => q.where('object', '=', sql.lit('redemption_rollback')),
      voucher_id: (q: ReturnType<typeof base>) => q.where('voucher_id', '=', 'v_1'),
    };
    for (const [name, filter] of Object.entries(filters)) {
      it(`filters by ${name}, newest first, with a created_at range`, () => {
        check(
          filter(base()).where('created_at', '<', '2030-01-01').orderBy('created_at', 'desc').orderBy('seq', 'desc'),
        );
      });
    }
  },
);
