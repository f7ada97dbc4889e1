import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/sqlite/connect.js';
import { assertCommitStats, freshDbFile } from '../support/db.js';

const insertKey = (name: string) =>
  sql`INSERT INTO api_keys (app_id, kind, name, token_hash, created_at) VALUES (${name}, 'server', ${name}, 'h', 't')`;

/** What another connection (another process) sees: only what is committed. */
function committedNames(file: string): string[] {
  const other = new BetterSqlite3(file, { readonly: true });
  try {
    return (other.prepare('SELECT name FROM api_keys ORDER BY name').all() as { name: string }[]).map((r) => r.name);
  } finally {
    other.close();
  }
}

describe('group commit', () => {
  it('commits transactions that arrive together once; a failing one loses only its own writes', async () => {
    const file = freshDbFile();
    const { db, commitStats, close } = openDatabase(file, { groupCommit: true });
    const seenBeforeAnswer: string[][] = [];
    const write = (name: string, fail: boolean) =>
      db
        .transaction()
        .execute(async (trx) => {
          await insertKey(name).execute(trx);
          if (fail) throw new Error(`${name} fails after its write`);
        })
        .then(() => seenBeforeAnswer.push(committedNames(file)));
    const results = await Promise.allSettled([write('a', false), write('b', true), write('c', false)]);

    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(committedNames(file), ['a', 'c']);
    // Each answer came after the COMMIT holding its write: another connection already saw it.
    assert.deepEqual(seenBeforeAnswer, [
      ['a', 'c'],
      ['a', 'c'],
    ]);
    assertCommitStats(commitStats(), { batches: 1, transactions: 2 });
    await close();
  });

  it('lets batches follow one another: a transaction that starts after a COMMIT opens the next', async () => {
    const file = freshDbFile();
    const { db, commitStats, close } = openDatabase(file, { groupCommit: true });
    await db.transaction().execute((trx) => insertKey('a').execute(trx));
    await db.transaction().execute((trx) => insertKey('b').execute(trx));
    assert.deepEqual(committedNames(file), ['a', 'b']);
    assert.equal(commitStats().batches, 2);
    await close();
  });

  it('never commits half a transaction: a transaction that awaits past the turn keeps the batch open', async () => {
    const file = freshDbFile();
    const { db, commitStats, close } = openDatabase(file, { groupCommit: true });
    let midway: string[] = [];
    await db.transaction().execute(async (trx) => {
      await insertKey('a').execute(trx);
      await new Promise((resolve) => setTimeout(resolve, 20)); // the batch's flush falls due here
      midway = committedNames(file);
      await insertKey('b').execute(trx);
    });
    assert.deepEqual(midway, []);
    assert.deepEqual(committedNames(file), ['a', 'b']);
    assert.equal(commitStats().batches, 1);
    await close();
  });

  it('makes a write outside any transaction wait for the open batch it joins', async () => {
    const file = freshDbFile();
    const { db, close } = openDatabase(file, { groupCommit: true });
    let seen: string[] = [];
    await Promise.all([
      db.transaction().execute((trx) => insertKey('a').execute(trx)),
      insertKey('b')
        .execute(db)
        .then(() => (seen = committedNames(file))),
    ]);
    assert.deepEqual(seen, ['a', 'b']);
    await close();
  });

  it('ends a batch whose transactions all rolled back without a COMMIT (nothing written to the WAL)', async () => {
    const file = freshDbFile();
    const { db, sqlite, commitStats, close } = openDatabase(file, { groupCommit: true });
    await db.transaction().execute((trx) => insertKey('kept').execute(trx));
    const walBytes = () => statSync(`${file}-wal`).size;
    const before = walBytes();
    const failing = (name: string) =>
      db.transaction().execute(async (trx) => {
        await insertKey(name).execute(trx);
        throw new Error(`${name} rolls back`);
      });
    const results = await Promise.allSettled([failing('x'), failing('y')]);
    await new Promise((resolve) => setImmediate(resolve)); // the batch's flush
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.deepEqual(committedNames(file), ['kept']);
    assert.equal(sqlite.inTransaction, false, 'the batch ended');
    assert.equal(walBytes(), before, 'a COMMIT would have written the pages the savepoints touched');
    assertCommitStats(commitStats(), { batches: 1, transactions: 1 });
    await close();
  });

  it('commits a write outside any transaction that joined a batch whose transaction rolled back', async () => {
    const file = freshDbFile();
    const { db, commitStats, close } = openDatabase(file, { groupCommit: true });
    const results = await Promise.allSettled([
      db.transaction().execute(async (trx) => {
        await insertKey('x').execute(trx);
        throw new Error('x rolls back');
      }),
      insertKey('outside').execute(db),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'fulfilled'],
    );
    assert.deepEqual(committedNames(file), ['outside']);
    assert.equal(commitStats().batches, 1, 'the outside write joined the open batch and was committed with it');
    await close();
  });

  it('commits the open batch on close', async () => {
    const file = freshDbFile();
    const { db, close } = openDatabase(file, { groupCommit: true });
    let written!: () => void;
    const writing = new Promise<void>((resolve) => (written = resolve));
    const pending = db.transaction().execute(async (trx) => {
      await insertKey('a').execute(trx);
      written();
    });
    await writing; // the transaction is still running, its batch not yet committed
    await close();
    await pending;
    assert.deepEqual(committedNames(file), ['a']);
  });
});
