import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { createDeps, type Deps } from '../../../src/app/deps.js';
import type { Database } from '../../../src/db/database.js';
import { internalActor } from '../../../src/lib/actor.js';
import { ORDER_STATUSES } from '../../../src/lib/enums.js';
import { listOrders } from '../../../src/modules/orders/orders-list.service.js';
import { ORDER_LIST_ORDER_FIELDS, type OrdersListQuery } from '../../../src/modules/orders/orders.schemas.js';
import { createOrder } from '../../../src/modules/orders/orders.service.js';
import { freshDbFile } from '../../support/db.js';

/**
 * DESIGN.md 3: every order and filter GET /v1/orders accepts is read through an index, with
 * no scan of a table and no sort into a temporary B-tree, at the first page and at a deep
 * one. Every statement the list runs is captured from Kysely's log and its EXPLAIN QUERY
 * PLAN read, with no statistics (a new install), then with those of a million orders where
 * each filter matches all of them, then where it matches one (the planner's choice may turn
 * on them).
 */
const ROWS = 1_000_000;

function writeStatistics(sqlite: BetterSqlite3.Database, rowsPerKey: number | undefined): void {
  sqlite.exec('ANALYZE');
  sqlite.exec('DELETE FROM sqlite_stat1');
  if (rowsPerKey !== undefined) {
    const indexes = sqlite
      .prepare(`SELECT i.name AS idx, t.name AS tbl, i."unique" AS uniq FROM sqlite_schema t, pragma_index_list(t.name) i WHERE t.type = 'table'`)
      .all() as Array<{ idx: string; tbl: string; uniq: number }>;
    const insert = sqlite.prepare('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
    for (const { idx, tbl, uniq } of indexes) {
      const columns = (sqlite.prepare('SELECT count(*) AS n FROM pragma_index_info(?)').get(idx) as { n: number }).n;
      insert.run(tbl, idx, [ROWS, ...Array.from({ length: columns }, (_, i) => (uniq && i === columns - 1 ? 1 : rowsPerKey))].join(' '));
    }
  }
  sqlite.exec('ANALYZE sqlite_schema');
}

function planProblems(sqlite: BetterSqlite3.Database, query: CompiledQuery): string[] {
  const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as unknown[])) as Array<{ detail: string }>;
  return plan
    .map((row) => row.detail)
    .filter((detail) => /TEMP B-TREE/.test(detail) || (/^SCAN /.test(detail) && !/USING (COVERING )?INDEX/.test(detail)));
}

describe('query plans of every GET /v1/orders variant', () => {
  let deps: Deps;
  let recording: Kysely<Database>;
  const captured: CompiledQuery[] = [];
  before(async () => {
    deps = createDeps({ dbFile: freshDbFile() });
    recording = new Kysely<Database>({
      dialect: new SqliteDialect({ database: deps.sqlite }),
      log: (event) => void captured.push(event.query),
    });
    for (const status of ORDER_STATUSES) {
      await createOrder(deps, internalActor(), { status, customer: { source_id: 'plans' }, items: [{ quantity: 1, price: 10 }] });
    }
  });
  after(async () => {
    await recording.destroy().catch(() => {});
    await deps.close();
  });

  const orders = [undefined, ...ORDER_LIST_ORDER_FIELDS.flatMap((field) => (['asc', 'desc'] as const).map((direction) => ({ field, direction })))];
  const filters: Array<Partial<OrdersListQuery>> = [{}, { customer: 'plans' }, { status: 'PAID' }, { customer: 'plans', status: 'PAID' }];
  const variants = orders.flatMap((order) => filters.flatMap((filter) => [1, 99].map((page) => ({ limit: 100, page, order, ...filter }) as OrdersListQuery)));

  for (const [label, rowsPerKey] of [['no statistics', undefined], ['filters matching every row', ROWS], ['filters matching one row', 1]] as const) {
    it(`reads every variant through an index (${label})`, async () => {
      writeStatistics(deps.sqlite, rowsPerKey);
      const problems: string[] = [];
      for (const query of variants) {
        captured.length = 0;
        await listOrders({ db: recording }, query);
        assert.ok(captured.some((q) => /from "orders"/.test(q.sql)), `${JSON.stringify(query)} ran no list statement`);
        for (const statement of captured) {
          const found = planProblems(deps.sqlite, statement);
          if (found.length > 0) problems.push(`${JSON.stringify(query)}\n  ${statement.sql}\n  -> ${found.join('; ')}`);
        }
      }
      assert.deepEqual(problems, []);
    });
  }

  it('would notice a sort or a scan', () => {
    const sort = recording.selectFrom('orders').selectAll().orderBy('amount').compile();
    const scan = recording.selectFrom('orders').selectAll().where('metadata', '=', '{}').compile();
    assert.deepEqual([planProblems(deps.sqlite, sort).length > 0, planProblems(deps.sqlite, scan).length > 0], [true, true]);
  });
});
