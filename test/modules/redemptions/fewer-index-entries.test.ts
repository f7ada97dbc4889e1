import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Deps } from '../../../src/app/deps.js';
import { openSqlite } from '../../../src/db/sqlite/connect.js';
import { loadMigrations, migrate } from '../../../src/db/sqlite/migrate.js';
import {
  countRedemptions,
  listRedemptionPage,
} from '../../../src/modules/redemptions/list/redemptions-list.repository.js';
import type { NewRedemptionRow } from '../../../src/modules/redemptions/redemptions.repository.js';
import { createDeps } from '../../../src/root/create-deps.js';
import { tempDir } from '../../support/db.js';
import { failedRow, parentRow, rollbackRow, voucherChildRow, type Who } from '../../support/redemption-rows.js';
import { sqliteOf } from '../../support/sqlite.js';
import { sqliteOnly } from '../../support/engine.js';

/**
 * sql/0033 on a file that already holds records: they are answered as before. Records written
 * under 0032 (a stack, failures, a rollback and a failed one) are found by the `result` and `object` filters
 * through the new partial indexes, and the indexes it drops are gone.
 */
const ann: Who = { id: 'cust_ann', source_id: 'ann' };
const gift = { id: 'v_g1', code: 'GIFT-1', campaign: null };
const at = (hour: number) => `2026-01-01T1${hour}:00:00.000Z`;
const RECORDS: NewRedemptionRow[] = [
  parentRow('r_p1', { at: at(0), who: ann, order: 'ord_1', children: ['r_c1'] }),
  voucherChildRow('r_c1', { at: at(0), who: ann, parent: 'r_p1', order: 'ord_1', voucher: gift, gift: 300 }),
  failedRow('rf_f1', { at: at(1), who: ann, voucher: gift, code: 'voucher_expired', message: 'voucher expired' }),
  rollbackRow('rr_1', { at: at(2), who: ann, of: 'r_c1', order: 'ord_1', voucher: gift, gift: 300 }),
  failedRow('rf_f2', { at: at(3), who: null, voucher: gift, code: 'voucher_expired', message: 'voucher expired' }),
  {
    ...rollbackRow('rrf_1', { at: at(4), who: ann, of: 'r_c1', order: 'ord_1', voucher: gift, gift: 300 }),
    result: 'FAILURE',
    status: 'FAILED',
    failure_code: 'already_rolled_back',
    failure_message: 'already rolled back',
  },
];

/** A file migrated up to 0032 with the records written there, then migrated on (0033). */
function fileMigratedOverRecords(): string {
  const file = join(tempDir(), 'promo.db');
  const sqlite = openSqlite(file);
  migrate(
    sqlite,
    loadMigrations().filter((m) => m.version < 33),
  );
  for (const row of RECORDS) {
    const columns = Object.keys(row);
    sqlite
      .prepare(`INSERT INTO redemptions (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`)
      .run(row);
  }
  migrate(sqlite);
  sqlite.close();
  return file;
}

describe(
  'sql/0033: fewer index entries per redemption record',
  sqliteOnly('sql/sqlite/0033 migrating a SQLite file that holds records (PostgreSQL starts at the baseline)'),
  () => {
    let deps: Deps;
    before(() => {
      deps = createDeps({ dbFile: fileMigratedOverRecords() });
    });
    after(() => deps.close());

    const newestFirst = { field: 'created_at', direction: 'desc' } as const;
    const page = async (equal: Record<string, string>) =>
      (await listRedemptionPage(deps.db, { filters: { equal }, sort: newestFirst, offset: 0, limit: 10 })).map(
        (r) => r.id,
      );

    it('finds the earlier records by their rare result and object, on the partial indexes', async () => {
      assert.deepEqual(await page({ result: 'FAILURE' }), ['rrf_1', 'rf_f2', 'rf_f1']);
      assert.deepEqual(await page({ object: 'redemption_rollback' }), ['rrf_1', 'rr_1']);
      assert.deepEqual(await page({ result: 'SUCCESS' }), ['rr_1', 'r_c1', 'r_p1']);
      assert.deepEqual(await page({ object: 'redemption', result: 'FAILURE' }), ['rf_f2', 'rf_f1']);
      const indexed = (index: string, where: string) =>
        sqliteOf(deps)
          .prepare(`SELECT id FROM redemptions INDEXED BY ${index} WHERE ${where} ORDER BY created_at`)
          .pluck()
          .all();
      assert.deepEqual(indexed('redemptions_failures', "result = 'FAILURE'"), ['rf_f1', 'rf_f2', 'rrf_1']);
      assert.deepEqual(indexed('redemptions_rollbacks', "object = 'redemption_rollback'"), ['rr_1', 'rrf_1']);
    });

    it('counts every object and result in a date range as the records hold them, where the counters do not serve', async () => {
      const ranges = [{ createdAfter: at(0) }, { createdBefore: at(3) }, { createdAfter: at(0), createdBefore: at(4) }];
      const kinds: Array<Record<string, string>> = [{}];
      for (const result of ['SUCCESS', 'FAILURE']) kinds.push({ result });
      for (const object of ['redemption', 'redemption_rollback']) {
        kinds.push({ object });
        for (const result of ['SUCCESS', 'FAILURE']) kinds.push({ object, result });
      }
      for (const range of ranges) {
        for (const equal of kinds) {
          const expected = RECORDS.filter(
            (r) =>
              (range.createdAfter === undefined || r.created_at > range.createdAfter) &&
              (range.createdBefore === undefined || r.created_at < range.createdBefore) &&
              Object.entries(equal).every(([column, value]) => r[column as 'result' | 'object'] === value),
          ).length;
          assert.equal(
            await countRedemptions(deps.db, { equal, ...range }),
            expected,
            JSON.stringify({ equal, range }),
          );
        }
      }
    });

    it('has dropped the indexes every record fed', () => {
      const names = sqliteOf(deps)
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'redemptions' ORDER BY name")
        .pluck()
        .all();
      for (const gone of ['redemptions_order', 'redemptions_result', 'redemptions_object']) {
        assert.equal(names.includes(gone), false, `${gone} is gone`);
      }
    });
  },
);
