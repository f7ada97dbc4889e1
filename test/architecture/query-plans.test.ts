import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CompiledQuery } from 'kysely';
import type { Deps } from '../../src/app/deps.js';
import { createDeps } from '../../src/root/create-deps.js';
import { createLogger } from '../../src/app/logger.js';
import { fixedClock } from '../../src/lib/clock.js';
import { freshDbFile } from '../support/db.js';
import { type Fixture, listVariants } from '../support/list-variants.js';
import { type PlanServer, planServer } from '../support/plan-server.js';
import { FILTER_WINDOW_ROWS, WINDOW_ALIAS } from '../../src/db/filter-window.js';
import {
  exemptions,
  explain,
  planProblems,
  readsTableRange,
  recordingKysely,
  ROWS,
  windowBounds,
  writeStatistics,
} from '../support/query-plans.js';
import { windowedVariants } from '../support/window-variants.js';
import { sqliteOf } from '../support/sqlite.js';
import { sqliteOnly } from '../support/engine.js';

/**
 * docs/architecture.md, Design rules: no request may hold the main thread for long, so every list order and filter
 * the API accepts is served by an index, without a scan of the table and without a sort into
 * a temporary B-tree. Each variant of every list endpoint (listed from the routes' own
 * constants in test/support/list-variants.ts) is requested through the real app; every
 * statement it runs is captured from Kysely's log and its EXPLAIN QUERY PLAN is read.
 *
 * An index walked in order (`SCAN t USING INDEX i`) is the ordered walk a page needs and
 * passes; `SCAN t` (every row of a table) or `USE TEMP B-TREE FOR ... ORDER BY` fails.
 * The planner's choice depends on statistics, so the plans are read three times: with none
 * (a new install), and with statistics of a million rows where every filter matches all of
 * them, then where every filter matches one.
 *
 * A filter no index serves (`$is_not`, `$contains`, a junction of "or" ...) is not indexed: it
 * is checked in a window of at most FILTER_WINDOW_ROWS rows of the list's own index walk
 * (src/db/filter-window.ts). For those variants the test states that bound and checks it:
 * every statement that reads the list's table by a walk or a range (anything but rowid
 * lookups of a page's rows) reads it through a subquery named filter_window whose LIMIT is
 * exactly FILTER_WINDOW_ROWS, with the same plan rules inside.
 */

describe(
  'query plans of every list variant',
  sqliteOnly('EXPLAIN QUERY PLAN of SQLite (its PostgreSQL twin: postgres-query-plans.test.ts)'),
  () => {
    let plans: PlanServer;
    let deps: Deps;
    let fixture: Fixture;
    const statementsOf = (path: string) => plans.statementsOf(path);

    /** The statements one GET runs, each with its plan's problems. */
    async function plansOf(path: string, withStatistics: boolean): Promise<string[]> {
      return (await statementsOf(path)).flatMap((statement) => {
        const problems = planProblems(explain(sqliteOf(deps), statement), exemptions(path, fixture, withStatistics));
        return problems.length === 0 ? [] : [`${path}\n  ${statement.sql}\n  -> ${problems.join('; ')}`];
      });
    }

    /** What is wrong with a windowed variant's statements: a read of the list's table outside a window of the bound. */
    async function windowProblemsOf(path: string, table: string): Promise<string[]> {
      const statements = await statementsOf(path);
      const windowed = statements.filter((s) => windowBounds(s, WINDOW_ALIAS).length > 0);
      const problems = windowed.length === 0 ? [`${path}\n  read no filter window`] : [];
      for (const statement of statements) {
        const bounds = windowBounds(statement, WINDOW_ALIAS);
        const plan = explain(sqliteOf(deps), statement);
        const unbounded =
          readsTableRange(plan, table) && (bounds.length === 0 || bounds.some((b) => b !== FILTER_WINDOW_ROWS));
        const bad = [
          ...planProblems(plan),
          ...(unbounded
            ? [`reads ${table} outside a window of ${FILTER_WINDOW_ROWS} rows (bounds: ${bounds.join(', ') || 'none'})`]
            : []),
        ];
        if (bad.length > 0) problems.push(`${path}\n  ${statement.sql}\n  -> ${bad.join('; ')}`);
      }
      return problems;
    }

    before(async () => {
      const real = createDeps({
        dbFile: freshDbFile(),
        clock: fixedClock('2024-06-01T00:00:00.000Z'),
        log: createLogger({ level: 'silent' }),
      });
      // The same connection through a Kysely that records every statement it runs, as compiled.
      plans = await planServer(real, (sink) => recordingKysely(sqliteOf(real), sink));
      ({ deps, fixture } = plans);
    });

    after(() => plans.close());

    const profiles: Array<[string, number | undefined]> = [
      ['without statistics', undefined],
      ['with statistics where every filter matches every row', ROWS],
      ['with statistics where every filter matches one row', 1],
    ];
    for (const [name, rowsPerKey] of profiles) {
      it(`reads every page and total from an index, ${name}`, async () => {
        writeStatistics(sqliteOf(deps), rowsPerKey);
        const failures: string[] = [];
        for (const path of listVariants(fixture)) failures.push(...(await plansOf(path, rowsPerKey !== undefined)));
        assert.equal(failures.length, 0, `${failures.length} statement(s) scan or sort:\n\n${failures.join('\n\n')}`);
      });
    }

    for (const [name, rowsPerKey] of profiles) {
      it(`reads every filter no index serves through a window of ${FILTER_WINDOW_ROWS} rows, ${name}`, async () => {
        writeStatistics(sqliteOf(deps), rowsPerKey);
        const failures: string[] = [];
        for (const [table, paths] of Object.entries(windowedVariants(fixture))) {
          for (const path of paths) failures.push(...(await windowProblemsOf(path, table)));
        }
        assert.equal(failures.length, 0, `${failures.length} problem(s):\n\n${failures.join('\n\n')}`);
      });
    }

    it('finds the window bound in a statement, and a table read outside it', () => {
      const query = (sql: string, parameters: unknown[]) =>
        ({ sql, parameters, query: undefined }) as unknown as CompiledQuery;
      const windowed = query(
        'select "seq" from (select "seq" from "vouchers" where "x" = ? order by "code" limit ?) as "filter_window" limit ? offset ?',
        ['a', 10_000, 10, 0],
      );
      assert.deepEqual(windowBounds(windowed, 'filter_window'), [10_000]);
      assert.deepEqual(windowBounds(query('select * from "vouchers" limit ?', [10]), 'filter_window'), []);
      assert.equal(readsTableRange([{ detail: 'SCAN vouchers USING INDEX vouchers_code' }], 'vouchers'), true);
      assert.equal(
        readsTableRange([{ detail: 'SEARCH vouchers USING INDEX vouchers_campaign (campaign_id=?)' }], 'vouchers'),
        true,
      );
      assert.equal(
        readsTableRange([{ detail: 'SEARCH vouchers USING INTEGER PRIMARY KEY (rowid=?)' }], 'vouchers'),
        false,
      );
      assert.equal(readsTableRange([{ detail: 'SEARCH vouchers_x USING INDEX y' }], 'vouchers'), false);
    });

    it('lists every order of every list endpoint', () => {
      const variants = listVariants(fixture);
      assert.equal(new Set(variants).size, variants.length);
      // Spot checks that the enumeration reaches what the routes accept (a regression guard).
      for (const needle of [
        '/v1/vouchers?order=-updated_at&campaign_id=',
        '/v1/customers?order=source_id&email=',
        'order=-type',
      ]) {
        assert.ok(
          variants.some((v) => v.includes(needle)),
          needle,
        );
      }
    });

    it('flags a table scan and a temporary sort, and passes an ordered index walk', () => {
      const scan = [{ detail: 'SCAN vouchers' }];
      const sort = [
        { detail: 'SEARCH vouchers USING INDEX vouchers_campaign (campaign_id=?)' },
        { detail: 'USE TEMP B-TREE FOR ORDER BY' },
      ];
      const walk = [
        { detail: 'SCAN v USING INDEX vouchers_updated_at' },
        { detail: 'SEARCH c USING INDEX sqlite_autoindex_campaigns_1 (id=?)' },
      ];
      const subquery = [{ detail: 'CO-ROUTINE m' }, { detail: 'SCAN m' }];
      assert.deepEqual(planProblems(scan), ['SCAN vouchers']);
      assert.deepEqual(planProblems(sort), ['USE TEMP B-TREE FOR ORDER BY']);
      assert.deepEqual(planProblems([{ detail: 'USE TEMP B-TREE FOR RIGHT PART OF ORDER BY' }]), [
        'USE TEMP B-TREE FOR RIGHT PART OF ORDER BY',
      ]);
      assert.deepEqual(planProblems(walk), []);
      assert.deepEqual(planProblems(subquery), []);
      assert.deepEqual(planProblems([{ detail: 'SCAN customer_counts' }]), []);
    });
  },
);
