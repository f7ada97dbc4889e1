import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/sqlite/connect.js';
import { assertCommitStats, freshDbFile } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

const insertCategory = (id: string) =>
  sql`INSERT INTO categories (id, name, hierarchy, created_at) VALUES (${id}, ${id}, 1, 't')`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the driver', sqliteOnly('the SQLite driver: reader connection and group commit'), () => {
  it('runs reads beside a running transaction, on committed data only', async () => {
    const { db, close } = openDatabase(freshDbFile(), { groupCommit: true, separateReads: true });
    const events: string[] = [];
    const writing = db.transaction().execute(async (trx) => {
      await insertCategory('cat_slow').execute(trx);
      events.push('written');
      await pause(50);
      events.push('committing');
    });
    await pause(10);
    const seen = await db.selectFrom('categories').select('id').where('id', '=', 'cat_slow').execute();
    events.push(`read ${seen.length}`);
    await writing;
    assert.deepEqual(events, ['written', 'read 0', 'committing']);
    assert.equal((await db.selectFrom('categories').select('id').where('id', '=', 'cat_slow').execute()).length, 1);
    await close();
  });

  it('runs transactions one at a time, in the order they asked, sharing commits', async () => {
    const { db, commitStats, close } = openDatabase(freshDbFile(), { groupCommit: true, separateReads: true });
    const steps: string[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        db.transaction().execute(async (trx) => {
          steps.push(`${name} begins`);
          await insertCategory(`cat_${name}`).execute(trx);
          await Promise.resolve();
          steps.push(`${name} ends`);
        }),
      ),
    );
    assert.deepEqual(steps, ['a begins', 'a ends', 'b begins', 'b ends', 'c begins', 'c ends']);
    assertCommitStats(commitStats(), { batches: 1, transactions: 3 });
    await close();
  });
});
