import assert from 'node:assert/strict';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/db/sqlite/connect.js';
import { withStatementCache } from '../../src/db/sqlite/statement-cache.js';
import type { Database } from '../../src/db/database.js';
import { directReads } from '../../src/db/direct-reads.js';
import { findApiKey } from '../../src/modules/auth/auth.repository.js';
import { freshDbFile } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

/**
 * The reader connection's per-tick read transaction (db/sqlite/read-snapshot.ts) and the raw-row
 * objects of the statement cache (db/sqlite/connect.ts): what a read sees is what it saw before.
 */
const insertKey = (sqlite: BetterSqlite3.Database, appId: string, name: string) =>
  sqlite
    .prepare(
      "INSERT INTO api_keys (app_id, kind, name, token_hash, created_at) VALUES (?, 'server', ?, 'h', '2026-01-01T00:00:00.000Z')",
    )
    .run(appId, name);

/** SQLite's data_version as the reader's snapshot of the tick sees it. */
const dataVersion = (db: Kysely<Database>): number => directReads(db)!.dataVersion();

/** The API's kind of handle (a reader, group commit) and a second connection to the same file. */
function opened() {
  const file = freshDbFile();
  const handle = openDatabase(file, { separateReads: true, groupCommit: true });
  const other = new BetterSqlite3(file);
  const close = async () => {
    other.close();
    await handle.close();
  };
  return { db: handle.db, other, close };
}

describe('reads on the reader connection', sqliteOnly("SQLite's reader connection and its snapshots"), () => {
  it("share one snapshot within a tick; another connection's commit reaches the next tick's reads", async () => {
    const { db, other, close } = opened();
    await nextMacrotask();
    const before = dataVersion(db);
    assert.equal(await findApiKey(db, 'k1'), undefined);
    insertKey(other, 'k1', 'first'); // between two reads of one tick
    assert.equal(await findApiKey(db, 'k1'), undefined, 'the same snapshot as the tick began');
    assert.equal(dataVersion(db), before);
    await nextMacrotask();
    assert.equal((await findApiKey(db, 'k1'))?.name, 'first');
    assert.notEqual(dataVersion(db), before, 'a revocation elsewhere stops the next tick at once');
    await close();
  });

  it("see this process's own commits at once, in the same tick (a write outside a transaction, a group-committed transaction)", async () => {
    const { db, other, close } = opened();
    await nextMacrotask();
    assert.equal(await findApiKey(db, 'k2'), undefined); // the tick's snapshot is open
    insertKey(other, 'k2', 'elsewhere');
    await db.updateTable('api_keys').set({ name: 'renamed' }).where('app_id', '=', 'none').execute();
    assert.equal((await findApiKey(db, 'k2'))?.name, 'elsewhere', 'the own commit ended the snapshot');
    await db
      .transaction()
      .execute((trx) => trx.updateTable('api_keys').set({ name: 'mine' }).where('app_id', '=', 'k2').execute());
    assert.equal((await findApiKey(db, 'k2'))?.name, 'mine');
    await close();
  });

  it('leave a streamed read its own statement, and read beside it', async () => {
    const { db, other, close } = opened();
    for (const id of ['s1', 's2', 's3']) insertKey(other, id, id);
    await nextMacrotask();
    assert.equal((await findApiKey(db, 's1'))?.name, 's1'); // a snapshot is open
    const seen: string[] = [];
    for await (const row of db.selectFrom('api_keys').select('app_id').orderBy('app_id').stream()) {
      seen.push(row.app_id);
      assert.equal((await findApiKey(db, row.app_id))?.app_id, row.app_id);
    }
    assert.deepEqual(seen, ['s1', 's2', 's3']);
    insertKey(other, 's4', 's4');
    assert.equal((await findApiKey(db, 's4'))?.name, 's4', 'no snapshot was left open by the stream');
    await close();
  });
});

describe('rows of the statement cache', sqliteOnly("better-sqlite3's statement cache"), () => {
  it("are better-sqlite3's own objects: keys, order, duplicate names, values, a changed schema", () => {
    const sqlite = new BetterSqlite3(':memory:');
    sqlite.exec("CREATE TABLE t (a, b, c); INSERT INTO t VALUES (1, 'x', NULL), (2, 'y', 3.5)");
    const cached = withStatementCache(sqlite);
    const queries = [
      'SELECT * FROM t',
      'SELECT a, b AS a, c FROM t',
      'SELECT a AS "1", b AS "0", c AS x FROM t',
      'SELECT c AS "__proto__", a FROM t',
      'SELECT * FROM t WHERE a > 5',
    ];
    for (const query of queries) {
      const got = cached.prepare(query).all([]);
      const want = sqlite.prepare(query).all();
      assert.deepEqual(got, want, query);
      assert.deepEqual(
        got.map((row) => Object.keys(row as object)),
        want.map((row) => Object.keys(row as object)),
        query,
      );
    }
    assert.deepEqual(cached.prepare('SELECT * FROM t').all([]), [
      { a: 1, b: 'x', c: null },
      { a: 2, b: 'y', c: 3.5 },
    ]);
    sqlite.exec('ALTER TABLE t ADD COLUMN d DEFAULT 7');
    assert.deepEqual(cached.prepare('SELECT * FROM t').all([]), [
      { a: 1, b: 'x', c: null, d: 7 },
      { a: 2, b: 'y', c: 3.5, d: 7 },
    ]);
    sqlite.close();
  });
});
