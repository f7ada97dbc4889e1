import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import {
  ERASED,
  ERASED_FAILURE_REASON,
  ERASED_ITEM_REASON,
  eraseJobDataAbout,
  findJobDataAbout,
} from '../../src/jobs/erasure.service.js';
import { freshDbFile } from '../support/db.js';
import { explain, planProblems, recordingKysely, ROWS, writeStatistics } from '../support/query-plans.js';
import { sqliteOnly } from '../support/engine.js';

const ZED = ['cust_0123456789abcdef', 'zed-crm-4711', 'zed@example.org'];
const AT = '2025-01-01T00:00:00.000Z';

/**
 * A permanent deletion searches the job tables whole before its transaction (on a read, no
 * write lock); inside the transaction it reads what that search found and what was written
 * since, by key. What lands between the two (a new job, an open job's next items, failures and
 * result) is erased all the same, and no statement of the transaction reads a table whole.
 */
describe(
  'job data erased in two phases: the search before the transaction, the rest by key inside it',
  sqliteOnly('EXPLAIN QUERY PLAN of SQLite on a SQLite connection'),
  () => {
    let sqlite: BetterSqlite3.Database;
    const job = (id: string, status: string, payload = '{}', result: string | null = null) =>
      sqlite
        .prepare(
          'INSERT INTO async_actions (id, type, status, payload, result, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(id, 'ORDERS.IMPORT', status, payload, result, AT, AT);
    const item = (actionId: string, position: number, body: unknown) =>
      sqlite
        .prepare('INSERT INTO async_action_items (action_id, position, body) VALUES (?, ?, ?)')
        .run(actionId, position, JSON.stringify(body));
    const failure = (actionId: string, position: number, key: string | null, reason: string) =>
      sqlite
        .prepare('INSERT INTO async_action_failures (action_id, position, key, reason) VALUES (?, ?, ?, ?)')
        .run(actionId, position, key, reason);

    before(() => {
      sqlite = openSqlite(freshDbFile());
      job('aa_done', 'DONE', '{}', JSON.stringify({ failed: [{ source_id: 'zed-crm-4711', reason: 'bad' }] }));
      failure('aa_done', 0, 'zed-crm-4711', 'bad');
      failure('aa_done', 1, 'amy', 'bad');
      job('aa_open', 'IN_PROGRESS');
      // Items 0 and 1 ran (0 failed); 2 and 3 wait. A failure's position is its item's.
      failure('aa_open', 0, 'o-0', 'Customer zed@example.org is blocked');
      item('aa_open', 2, { source_id: 'o-2', customer: { source_id: 'amy' } });
      item('aa_open', 3, { source_id: 'o-3', customer: { source_id: 'zed-crm-4711' } });
    });
    after(() => sqlite.close());

    it('erases what was found and what was written since, reading no table whole inside the transaction', async () => {
      const db = recordingKysely(sqlite, () => undefined);
      const found = await findJobDataAbout(db, ZED);
      // Written after the search: the open job's next item and failure and its result, and a new job.
      item('aa_open', 4, { source_id: 'o-4', customer: { email: 'zed@example.org' } });
      failure('aa_open', 1, 'zed-crm-4711', 'bad');
      sqlite
        .prepare('UPDATE async_actions SET result = ? WHERE id = ?')
        .run(JSON.stringify({ failed: [{ source_id: 'zed-crm-4711' }] }), 'aa_open');
      job('aa_new', 'ENQUEUED', JSON.stringify({ filter: 'zed@example.org' }));
      item('aa_new', 0, { customer: { source_id: 'zed-crm-4711' } });

      const statements: CompiledQuery[] = [];
      const recording = recordingKysely(sqlite, (query) => statements.push(query));
      const counts = await recording.transaction().execute((trx) => eraseJobDataAbout(trx, ZED, found));
      assert.deepEqual(counts, { items: 3, failures: 3, jobs: 3 });

      const rows = (sql: string) => sqlite.prepare(sql).all();
      assert.deepEqual(rows('SELECT action_id, position FROM async_action_items ORDER BY action_id, position'), [
        { action_id: 'aa_open', position: 2 },
      ]);
      assert.deepEqual(
        rows('SELECT action_id, position, key, reason FROM async_action_failures ORDER BY action_id, position'),
        [
          { action_id: 'aa_done', position: 0, key: null, reason: ERASED_FAILURE_REASON },
          { action_id: 'aa_done', position: 1, key: 'amy', reason: 'bad' },
          { action_id: 'aa_new', position: 0, key: null, reason: ERASED_ITEM_REASON },
          { action_id: 'aa_open', position: 0, key: null, reason: ERASED_FAILURE_REASON },
          { action_id: 'aa_open', position: 1, key: null, reason: ERASED_FAILURE_REASON },
          { action_id: 'aa_open', position: 3, key: null, reason: ERASED_ITEM_REASON },
          { action_id: 'aa_open', position: 4, key: null, reason: ERASED_ITEM_REASON },
        ],
      );
      assert.deepEqual(rows('SELECT id, payload, result FROM async_actions ORDER BY seq'), [
        { id: 'aa_done', payload: '{}', result: JSON.stringify({ failed: [{ source_id: ERASED, reason: ERASED }] }) },
        { id: 'aa_open', payload: '{}', result: JSON.stringify({ failed: [{ source_id: ERASED }] }) },
        { id: 'aa_new', payload: JSON.stringify({ filter: ERASED }), result: null },
      ]);

      for (const rowsPerKey of [undefined, ROWS, 1]) {
        writeStatistics(sqlite, rowsPerKey);
        const scans = statements.flatMap((statement) =>
          planProblems(explain(sqlite, statement)).map((problem) => `${statement.sql}\n  -> ${problem}`),
        );
        assert.deepEqual(scans, [], `statistics ${rowsPerKey}`);
      }
    });
  },
);
