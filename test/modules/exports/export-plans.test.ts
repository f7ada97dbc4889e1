import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CompiledQuery } from 'kysely';
import type { Deps } from '../../../src/app/deps.js';
import { createDeps } from '../../../src/root/create-deps.js';
import { columnsFor, EXPORT_SOURCES } from '../../../src/modules/exports/export-sources.rules.js';
import { streamSourcePage, type KeysetPage } from '../../../src/modules/exports/exports.repository.js';
import { freshDbFile } from '../../support/db.js';
import { explain, planProblems, recordingKysely, ROWS, writeStatistics } from '../../support/query-plans.js';
import { sqliteOf } from '../../support/sqlite.js';
import { sqliteOnly } from '../../support/engine.js';

/**
 * No request may hold the main thread for long (docs/architecture.md, Design rules), and so
 * for the EXPORT job: each portion's keyset page, for every exported object and
 * every order it accepts (and the order of insertion), both directions, first page and later
 * ones, reads from an index without a scan of the table or a sort, with no statistics and with
 * those of a million rows (see test/architecture/query-plans.test.ts).
 */
describe("query plans of the export job's keyset pages", sqliteOnly('EXPLAIN QUERY PLAN of SQLite'), () => {
  let deps: Deps;
  const captured: CompiledQuery[] = [];
  let db: Deps['db'];
  before(() => {
    deps = createDeps({ dbFile: freshDbFile() });
    db = recordingKysely(sqliteOf(deps), (query) => captured.push(query));
  });
  after(() => deps.close());

  /** Every page variant of every source, as [label, statements]. */
  async function statements(): Promise<Array<[string, CompiledQuery]>> {
    const out: Array<[string, CompiledQuery]> = [];
    for (const [name, source] of Object.entries(EXPORT_SOURCES)) {
      for (const orderColumn of [null, ...Object.values(source.orders)]) {
        for (const descending of [false, true]) {
          for (const after of [null, [orderColumn === null ? 5 : 'x', 5] as [unknown, number]]) {
            const page: KeysetPage = {
              columns: columnsFor(source, Object.keys(source.fields), orderColumn),
              orderColumn,
              descending,
              after,
              maxSeq: 1_000_000,
              limit: 1000,
            };
            captured.length = 0;
            for await (const _row of streamSourcePage(db, source, page)) assert.fail('the tables are empty');
            assert.ok(captured.length > 0);
            for (const query of captured)
              out.push([
                `${name} ${descending ? '-' : ''}${orderColumn ?? 'seq'} after=${JSON.stringify(after)}`,
                query,
              ]);
          }
        }
      }
    }
    return out;
  }

  for (const [profile, rowsPerKey] of [
    ['without statistics', undefined],
    ['with a million rows, many per key', ROWS],
    ['with a million rows, one per key', 1],
  ] as const) {
    it(`walks an index, ${profile}`, async () => {
      writeStatistics(sqliteOf(deps), rowsPerKey);
      const failures = (await statements()).flatMap(([label, query]) => {
        const problems = planProblems(explain(sqliteOf(deps), query));
        return problems.length === 0 ? [] : [`${label}\n  ${query.sql}\n  -> ${problems.join('; ')}`];
      });
      assert.equal(failures.length, 0, failures.join('\n\n'));
    });
  }
});
