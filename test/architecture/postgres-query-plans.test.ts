import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Deps } from '../../src/app/deps.js';
import { createLogger } from '../../src/app/logger.js';
import type { PostgresEngine } from '../../src/db/postgres/engine.js';
import { fixedClock } from '../../src/lib/clock.js';
import { listVariants } from '../support/list-variants.js';
import { type PlanServer, planServer } from '../support/plan-server.js';
import { onPostgres, openTestDeps } from '../support/engine.js';
import {
  explainOnPostgres,
  hasPlan,
  type PlanNode,
  type PlannerSettings,
  postgresPlanProblems,
  postgresWindowBounds,
  readsTableRangeOnPostgres,
  recordPool,
  type UniqueKeys,
  uniqueKeys,
} from '../support/postgres-plans.js';
import { exemptions } from '../support/query-plans.js';
import { windowedVariants } from '../support/window-variants.js';
import { FILTER_WINDOW_ROWS, WINDOW_ALIAS } from '../../src/db/filter-window.js';

/**
 * The PostgreSQL twin of query-plans.test.ts (docs/architecture.md, Design rules): every
 * variant of every list endpoint (test/support/list-variants.ts) is requested through the real
 * app on a PostgreSQL database; every statement it runs is captured as sent (at the engine's
 * own pool's clients) and planned with EXPLAIN (FORMAT JSON), its parameters bound.
 * No plan may hold a Sort (or Incremental Sort) node, nor a Seq Scan of a table that is not
 * small by nature.
 *
 * What it proves, and what not: the database holds the fixture's few rows, on which the
 * planner would rightly read every table whole. So the plans are read with `enable_seqscan`
 * and `enable_sort` off: that does not forbid either, it prices them above any plan that has
 * another way. A Seq Scan or Sort that remains is one no index can replace, which is what the
 * test fails on. It does not prove that the planner picks that index at production sizes
 * (SQLite's check fakes a million rows' statistics; PostgreSQL plans from the table's real
 * size on disk, so faking would mean writing the rows): the index exists and serves the order.
 * The filters that no index serves read through a bounded window (src/db/filter-window.ts):
 * for those variants, as in query-plans.test.ts, every statement that reads the list's table
 * other than by its primary key (a page's rows by seq) must read it through a subquery named
 * filter_window whose LIMIT is exactly FILTER_WINDOW_ROWS, with the same plan rules.
 *
 * It runs on the PostgreSQL pass (PROMO_TEST_ENGINE=postgres); on the SQLite pass,
 * query-plans.test.ts reads SQLite's plans of the same variants.
 */
const onSqlitePass = onPostgres()
  ? {}
  : { skip: "PostgreSQL's plans: the PostgreSQL pass reads them (PROMO_TEST_ENGINE=postgres)" };

/** No Seq Scan and no Sort where an index can do the work. */
const INDEX_ONLY: PlannerSettings = { enable_seqscan: 'off', enable_sort: 'off' };

describe('PostgreSQL query plans of every list variant', onSqlitePass, () => {
  let plans: PlanServer;
  let pool: PostgresEngine['pool'];
  let keys: UniqueKeys;

  before(async () => {
    const real: Deps = await openTestDeps({
      clock: fixedClock('2024-06-01T00:00:00.000Z'),
      log: createLogger({ level: 'silent' }),
    });
    pool = (real.engine as PostgresEngine).pool;
    keys = await uniqueKeys(pool);
    // The engine itself, its pools' clients recording every statement sent to the server (the
    // key's look-up is answered from the engine's cache: a GET may run one statement). A list
    // runs on the read pool, outside a transaction.
    const engine = real.engine as PostgresEngine;
    plans = await planServer(
      real,
      (sink) => {
        for (const recorded of [engine.pool, engine.readPool]) if (recorded) recordPool(recorded, sink);
        return real.db;
      },
      1,
    );
  });

  after(async () => {
    await plans.close();
  });

  /** The statements one GET runs, each with its plan's problems. */
  async function problemsOf(path: string): Promise<string[]> {
    const failures: string[] = [];
    for (const statement of (await plans.statementsOf(path)).filter(hasPlan)) {
      const plan = await explainOnPostgres(pool, statement, INDEX_ONLY);
      const problems = postgresPlanProblems(plan, keys, exemptions(path, plans.fixture, false));
      if (problems.length > 0) failures.push(`${path}\n  ${statement.sql}\n  -> ${problems.join('; ')}`);
    }
    return failures;
  }

  it('reads every page and total from an index (Seq Scan and Sort priced out)', async () => {
    const failures: string[] = [];
    for (const path of listVariants(plans.fixture)) failures.push(...(await problemsOf(path)));
    assert.equal(failures.length, 0, `${failures.length} statement(s) scan or sort:\n\n${failures.join('\n\n')}`);
  });

  /** What is wrong with a windowed variant's statements: a read of the list's table outside a window of the bound. */
  async function windowProblemsOf(path: string, table: string): Promise<string[]> {
    const statements = (await plans.statementsOf(path)).filter(hasPlan);
    const windowed = statements.filter((s) => postgresWindowBounds(s, WINDOW_ALIAS).length > 0);
    const problems = windowed.length === 0 ? [`${path}\n  read no filter window`] : [];
    for (const statement of statements) {
      const bounds = postgresWindowBounds(statement, WINDOW_ALIAS);
      const plan = await explainOnPostgres(pool, statement, INDEX_ONLY);
      const unbounded =
        readsTableRangeOnPostgres(plan, table) &&
        (bounds.length === 0 || bounds.some((b) => Number(b) !== FILTER_WINDOW_ROWS));
      const bad = [
        ...postgresPlanProblems(plan, keys),
        ...(unbounded
          ? [`reads ${table} outside a window of ${FILTER_WINDOW_ROWS} rows (bounds: ${bounds.join(', ') || 'none'})`]
          : []),
      ];
      if (bad.length > 0) problems.push(`${path}\n  ${statement.sql}\n  -> ${bad.join('; ')}`);
    }
    return problems;
  }

  it(`reads every filter no index serves through a window of ${FILTER_WINDOW_ROWS} rows`, async () => {
    const failures: string[] = [];
    for (const [table, paths] of Object.entries(windowedVariants(plans.fixture))) {
      for (const path of paths) failures.push(...(await windowProblemsOf(path, table)));
    }
    assert.equal(failures.length, 0, `${failures.length} problem(s):\n\n${failures.join('\n\n')}`);
  });

  it('flags a Seq Scan of a big table and a Sort at any depth, and passes index walks and small tables', () => {
    const node = (type: string, extra: Partial<PlanNode> = {}): PlanNode => ({ 'Node Type': type, ...extra });
    const limit = (...children: PlanNode[]) => node('Limit', { Plans: children });
    const none: UniqueKeys = new Map();
    const vouchers = node('Index Scan', { 'Relation Name': 'vouchers', 'Index Name': 'vouchers_code_key' });
    assert.deepEqual(postgresPlanProblems(limit(node('Seq Scan', { 'Relation Name': 'vouchers' })), none), [
      'Seq Scan on vouchers',
    ]);
    assert.deepEqual(postgresPlanProblems(limit(node('Sort', { Plans: [vouchers] })), none), ['Sort']);
    const walk = node('Nested Loop', { Plans: [vouchers, node('Seq Scan', { 'Relation Name': 'campaigns' })] });
    assert.deepEqual(postgresPlanProblems(limit(walk), none), []);
    const counters = node('Aggregate', { Plans: [node('Seq Scan', { 'Relation Name': 'customer_counts' })] });
    assert.deepEqual(postgresPlanProblems(counters, none), []);
    assert.deepEqual(postgresPlanProblems(limit(node('Sort')), none, { sort: true, scan: false }), []);
    // An Incremental Sort is a sort, unless what is presorted is a NOT NULL unique key of the table read.
    const incremental = (presorted: string[]) =>
      limit(node('Incremental Sort', { 'Presorted Key': presorted, Plans: [vouchers] }));
    const keys: UniqueKeys = new Map([['vouchers', [['code'], ['id']]]]);
    assert.deepEqual(postgresPlanProblems(incremental(['code']), none), ['Incremental Sort']);
    assert.deepEqual(postgresPlanProblems(incremental(['campaign_id']), keys), ['Incremental Sort']);
    assert.deepEqual(postgresPlanProblems(incremental(['code']), keys), []);
    assert.deepEqual(postgresPlanProblems(incremental(['"v".code']), keys), []);
  });

  it('knows the unique keys of NOT NULL columns, and no other', () => {
    const vouchers = keys.get('vouchers') ?? [];
    assert.ok(vouchers.some((key) => key.join() === 'code'));
    assert.ok(vouchers.some((key) => key.join() === 'seq'));
    // customers.source_id is unique but may be NULL: its NULLs are one presorted group.
    assert.ok(!(keys.get('customers') ?? []).some((key) => key.includes('source_id')));
  });

  it('finds the window bound in a statement, and a table read other than by its primary key', () => {
    const windowed = {
      sql: 'select "seq" from (select "seq" from "vouchers" where "x" = $1 order by "code" limit $2) as "filter_window" limit $3 offset $4',
      parameters: ['a', 10_000, 10, 0],
    };
    assert.deepEqual(postgresWindowBounds(windowed, 'filter_window'), [10_000]);
    assert.deepEqual(
      postgresWindowBounds({ sql: 'select * from "vouchers" limit $1', parameters: [10] }, 'filter_window'),
      [],
    );
    const scan = (type: string, index?: string): PlanNode => ({
      'Node Type': 'Limit',
      Plans: [{ 'Node Type': type, 'Relation Name': 'vouchers', ...(index ? { 'Index Name': index } : {}) }],
    });
    assert.equal(readsTableRangeOnPostgres(scan('Index Scan', 'vouchers_code_key'), 'vouchers'), true);
    assert.equal(readsTableRangeOnPostgres(scan('Seq Scan'), 'vouchers'), true);
    assert.equal(readsTableRangeOnPostgres(scan('Bitmap Heap Scan'), 'vouchers'), true);
    assert.equal(readsTableRangeOnPostgres(scan('Index Scan', 'vouchers_pkey'), 'vouchers'), false);
    assert.equal(readsTableRangeOnPostgres(scan('Index Scan', 'vouchers_code_key'), 'redemptions'), false);
  });

  it('plans only statements that have a plan', () => {
    const query = (sql: string) => ({ sql, parameters: [] }) as never;
    assert.equal(hasPlan(query('select 1')), true);
    assert.equal(hasPlan(query('with x as (select 1) select * from x')), true);
    assert.equal(hasPlan(query('update "vouchers" set "x" = $1')), true);
    assert.equal(hasPlan(query('set local lock_timeout = 1')), false);
    assert.equal(hasPlan(query('begin')), false);
  });
});
