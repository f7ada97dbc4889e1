import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase, openSqlite } from '../../src/db/sqlite/connect.js';
import { withStatementCache } from '../../src/db/sqlite/statement-cache.js';
import { loadMigrations } from '../../src/db/sqlite/migrate.js';
import { runCli } from '../support/cli.js';
import { freshDbFile, tempDir } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

const require = createRequire(import.meta.url);

describe(
  'database connection',
  sqliteOnly(
    'SQLite connection settings: pragmas, BEGIN IMMEDIATE, busy_timeout, statement cache, migrating a new file',
  ),
  () => {
    it('sets the house pragmas', () => {
      const { sqlite } = openDatabase(freshDbFile());
      assert.equal(sqlite.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(sqlite.pragma('foreign_keys', { simple: true }), 1);
      assert.equal(sqlite.pragma('busy_timeout', { simple: true }), 5000);
      assert.equal(sqlite.pragma('synchronous', { simple: true }), 2, 'FULL for the API');
      assert.equal(sqlite.pragma('cache_size', { simple: true }), -65536);
      sqlite.close();
      const bulk = openSqlite(freshDbFile(), { synchronous: 'NORMAL' });
      assert.equal(bulk.pragma('synchronous', { simple: true }), 1);
      bulk.close();
    });

    it('begins transactions IMMEDIATE: the write lock is held from the first statement', async () => {
      const file = freshDbFile();
      const { db, close } = openDatabase(file);
      const other = new BetterSqlite3(file);
      other.pragma('busy_timeout = 0');
      let otherWrite: unknown;
      await db.transaction().execute(async (trx) => {
        await sql`SELECT count(*) FROM api_keys`.execute(trx); // only a read so far
        try {
          other
            .prepare(
              "INSERT INTO api_keys (app_id, kind, name, token_hash, created_at) VALUES ('x', 'server', 'x', 'h', 't')",
            )
            .run();
          otherWrite = 'succeeded';
        } catch (error) {
          otherWrite = (error as { code?: string }).code;
        }
      });
      // A DEFERRED transaction would hold only a read lock here, and the other write would succeed.
      assert.equal(otherWrite, 'SQLITE_BUSY');
      other.close();
      await close();
    });

    it('waits for a write lock another connection holds, and gives up after busy_timeout', async () => {
      const file = freshDbFile();
      // Another thread holds the write lock for 150 ms.
      const holder = new Worker(
        `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
       const db = new Database(${JSON.stringify(file)});
       db.pragma('journal_mode = WAL');
       db.exec('begin immediate');
       require('node:worker_threads').parentPort.postMessage('locked');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
       db.exec('commit');`,
        { eval: true },
      );
      await new Promise((resolve) => holder.once('message', resolve));
      const patient = openDatabase(file, { busyTimeoutMs: 2000 });
      const started = performance.now();
      await patient.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO api_keys (app_id, kind, name, token_hash, created_at) VALUES ('w', 'server', 'w', 'h', 't')`.execute(
          trx,
        );
      });
      const waited = performance.now() - started;
      assert.ok(waited > 50 && waited < 1000, `took the lock after ${waited} ms`);
      await patient.close();

      const other = new BetterSqlite3(file);
      other.exec('begin immediate');
      const impatient = openDatabase(file, { busyTimeoutMs: 50 });
      await assert.rejects(
        impatient.db.transaction().execute(async () => {}),
        (e: unknown) => (e as { code?: string }).code === 'SQLITE_BUSY',
      );
      assert.equal(
        impatient.sqlite.pragma('busy_timeout', { simple: true }),
        50,
        'busy_timeout restored for statements outside transactions',
      );
      other.exec('rollback');
      other.close();
      await impatient.close();
      await holder.terminate();
    });

    it('caches statements by SQL text, and streams with statements of their own', async () => {
      const sqlite = openSqlite(freshDbFile());
      let prepared = 0;
      const original = sqlite.prepare.bind(sqlite);
      sqlite.prepare = ((source: string) => {
        prepared++;
        return original(source);
      }) as typeof sqlite.prepare;
      const cached = withStatementCache(sqlite);
      for (let i = 0; i < 5; i++) cached.prepare('SELECT 1 AS one').all([]);
      assert.equal(prepared, 1);
      // A streamed read prepares a statement of its own, so it never holds the cached one.
      const rows = [...cached.prepare('SELECT value FROM json_each(?)').iterate(['[1,2,3]'])];
      assert.deepEqual(rows, [{ value: 1 }, { value: 2 }, { value: 3 }]);
      assert.equal(prepared, 3, 'one cached for all(), one for the cache entry of json_each, one for iterate');
      sqlite.close();
    });

    it('migrates once when several processes start on a new file at the same time', async () => {
      const db = join(tempDir(), 'race.db');
      const results = await Promise.all([1, 2, 3, 4].map(() => runCli(['migrate', '--db', db, '--json'])));
      for (const res of results) assert.equal(res.code, 0, res.stderr);
      const applied = results.flatMap((r) => JSON.parse(r.stdout).applied as string[]);
      assert.deepEqual(
        applied.sort(),
        loadMigrations()
          .map((m) => m.name)
          .sort(),
        'each migration applied exactly once',
      );
      const sqlite = new BetterSqlite3(db);
      const rows = sqlite.prepare('SELECT count(*) AS n FROM schema_migrations').get() as { n: number };
      assert.equal(rows.n, loadMigrations().length);
      sqlite.close();
    });
  },
);

describe('inBatches', () => {
  it('splits a long key list into batches under the parameter cap and keeps every row', async () => {
    const { inBatches } = await import('../../src/db/batches.js');
    const sizes: number[] = [];
    const keys = Array.from({ length: 1001 }, (_, i) => i);
    const rows = await inBatches(keys, async (batch) => {
      sizes.push(batch.length);
      return batch.map((k) => k * 2);
    });
    assert.deepEqual(sizes, [400, 400, 201]);
    assert.deepEqual(
      rows,
      keys.map((k) => k * 2),
    );
    assert.deepEqual(await inBatches([], async () => [1]), []);
  });
});
