import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { openDatabase } from '../../src/db/sqlite/connect.js';
import type { FirstWrite } from '../../src/db/engine.js';
import { withFirstWrite } from '../../src/db/sqlite/first-write.js';
import { freshDbFile } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

const marker = (): FirstWrite => ({
  done: false,
  statement: () =>
    CompiledQuery.raw(
      "INSERT INTO idempotency_keys (credential, key, request_hash, created_at) VALUES ('c', 'k', 'h', 't')",
    ),
  refusal: (error) => error,
});

describe(
  'the first write of a request',
  sqliteOnly("the SQLite driver's group commit (PostgreSQL's first write: test/db/postgres-engine.test.ts)"),
  () => {
    for (const groupCommit of [true, false]) {
      it(`commits with the request's first transaction, or not at all (group commit ${groupCommit ? 'on' : 'off'})`, async () => {
        const { db, sqlite, close } = openDatabase(freshDbFile(), { groupCommit });
        const count = () => (sqlite.prepare('SELECT count(*) AS n FROM idempotency_keys').get() as { n: number }).n;
        const failed = marker();
        await assert.rejects(
          withFirstWrite(failed, () =>
            db.transaction().execute(async (trx) => {
              await sql`INSERT INTO categories (id, name, hierarchy, created_at) VALUES ('cat_1', 'x', 1, 't')`.execute(
                trx,
              );
              throw new Error('the request fails after writing');
            }),
          ),
        );
        assert.equal(failed.done, true);
        assert.equal(count(), 0);
        const taken = marker();
        await withFirstWrite(taken, async () => {
          await db.transaction().execute((trx) => sql`SELECT 1`.execute(trx));
          await db.transaction().execute((trx) => sql`SELECT 2`.execute(trx)); // the second runs nothing
        });
        assert.equal(count(), 1);
        // The key is taken now: the next request's first transaction fails before anything else.
        await assert.rejects(
          withFirstWrite(marker(), () =>
            db
              .transaction()
              .execute((trx) =>
                sql`INSERT INTO categories (id, name, hierarchy, created_at) VALUES ('cat_2', 'y', 1, 't')`.execute(
                  trx,
                ),
              ),
          ),
          { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' },
        );
        assert.equal(
          (sqlite.prepare("SELECT count(*) AS n FROM categories WHERE id = 'cat_2'").get() as { n: number }).n,
          0,
        );
        await close();
      });
    }
  },
);
