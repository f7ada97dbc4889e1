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
  recordPool,
  type UniqueKeys,
  uniqueKeys,
} from '../support/postgres-plans.js';
import { exemptions } from '../support/query-plans.js';

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
 * The filters that no index serves read through a bounded window on SQLite
 * (src/db/sqlite/filter-window.ts, checked by query-plans.test.ts); they are not listed here.
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
    // The engine itself, its pool's clients recording every statement sent to the server (the
    // key's look-up is answered from the engine's cache: a GET may run one statement).
    plans = await planServer(
      real,
      (sink) => {
        recordPool(pool, sink);
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

  it('plans only statements that have a plan', () => {
    const query = (sql: string) => ({ sql, parameters: [] }) as never;
    assert.equal(hasPlan(query('select 1')), true);
    assert.equal(hasPlan(query('with x as (select 1) select * from x')), true);
    assert.equal(hasPlan(query('update "vouchers" set "x" = $1')), true);
    assert.equal(hasPlan(query('set local lock_timeout = 1')), false);
    assert.equal(hasPlan(query('begin')), false);
  });
});
