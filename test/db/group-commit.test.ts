import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/sqlite/connect.js';
import type { Deps } from '../../src/app/deps.js';
import { walBytes } from '../../src/db/sqlite/wal.js';
import { HAND_OFF_MS } from '../../src/jobs/portion-size.js';
import { createDeps } from '../../src/root/create-deps.js';
import { assertCommitStats, freshDbFile } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

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

/**
 * The transaction-control statements every connection opened from now on runs, in order
 * (prepared ones included: group commit prepares its savepoints once), until `restore`.
 */
function recordTransactionControl() {
  const statements: string[] = [];
  const proto = BetterSqlite3.prototype as unknown as {
    prepare: (text: string) => BetterSqlite3.Statement;
    exec: (text: string) => unknown;
  };
  const { prepare, exec } = proto;
  const control = /^(savepoint|release|rollback|commit)\b/i;
  proto.prepare = function (this: BetterSqlite3.Database, text: string) {
    const statement = prepare.call(this, text);
    if (!control.test(text)) return statement;
    const run = statement.run.bind(statement);
    return Object.assign(statement, {
      run: (...args: unknown[]) => {
        statements.push(text);
        return run(...args);
      },
    });
  };
  proto.exec = function (this: BetterSqlite3.Database, text: string) {
    if (control.test(text)) statements.push(text);
    return exec.call(this, text);
  };
  return {
    statements,
    restore: () => Object.assign(proto, { prepare, exec }),
  };
}

describe('group commit', sqliteOnly("SQLite's group commit"), () => {
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

  it('commits a write outside any transaction that joined a batch whose later transaction rolled back', async () => {
    const file = freshDbFile();
    const { db, commitStats, close } = openDatabase(file, { groupCommit: true });
    const results = await Promise.allSettled([
      db.transaction().execute((trx) => insertKey('a').execute(trx)),
      db.transaction().execute(async (trx) => {
        await insertKey('x').execute(trx);
        throw new Error('x rolls back');
      }),
      insertKey('outside').execute(db),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(committedNames(file), ['a', 'outside']);
    assertCommitStats(commitStats(), { batches: 1, transactions: 1 });
    await close();
  });

  it("runs a batch's first transaction without a savepoint: its rollback ends the batch, and the next write opens another", async () => {
    const control = recordTransactionControl();
    const file = freshDbFile();
    const { db, sqlite, commitStats, close } = openDatabase(file, { groupCommit: true });
    try {
      await db.transaction().execute((trx) => insertKey('a').execute(trx));
      const results = await Promise.allSettled([
        db.transaction().execute(async (trx) => {
          await insertKey('x').execute(trx);
          throw new Error('x rolls back');
        }),
        db.transaction().execute((trx) => insertKey('b').execute(trx)),
        db.transaction().execute(async (trx) => {
          await insertKey('y').execute(trx);
          throw new Error('y rolls back');
        }),
        db.transaction().execute((trx) => insertKey('c').execute(trx)),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['rejected', 'fulfilled', 'rejected', 'fulfilled'],
      );
      assert.deepEqual(committedNames(file), ['a', 'b', 'c']);
      assert.equal(sqlite.inTransaction, false);
      assert.deepEqual(control.statements, [
        'commit', // a, alone in its batch
        'rollback', // x opened the next batch: its rollback ended it
        'savepoint group_tx', // b opened a batch again; y joined it
        'rollback to group_tx',
        'release group_tx',
        'savepoint group_tx', // c joined it too
        'release group_tx',
        'commit', // b and c
      ]);
      assertCommitStats(commitStats(), { batches: 2, transactions: 3 });
    } finally {
      control.restore();
      await close();
    }
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

const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setTimeout(resolve, 1));
};

/**
 * A transaction open on the writer (a runner's claim between its statements) while `checkpoint`
 * is asked for: answers what happened, in order. SQLite fails a checkpoint on a connection
 * inside a transaction at once (SQLITE_LOCKED, "database table is locked"): it must wait for it.
 */
async function checkpointBesideTransaction(deps: Deps, checkpoint: () => Promise<void>): Promise<string[]> {
  const events: string[] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const transaction = deps.db.transaction().execute(async (trx) => {
    await insertKey('claim').execute(trx);
    events.push('transaction wrote');
    await held;
  });
  while (events.length === 0) await turns(1);
  const copied = (async () => checkpoint())().then(
    () => events.push('checkpoint ran'),
    (error: Error) => events.push(`checkpoint failed: ${error.message}`),
  );
  await turns(20);
  events.push('transaction ends');
  release();
  await Promise.all([transaction, copied]);
  return events;
}

/** The checkpoints a command runs on its own writer (jobs/follow.ts): between the runner's transactions. */
describe('checkpoints on the writer connection', sqliteOnly("SQLite's WAL checkpoints"), () => {
  it('empties the log once the open transaction and its batch are committed', async () => {
    const dbFile = freshDbFile();
    const deps = createDeps({ dbFile });
    try {
      await deps.db.transaction().execute((trx) => insertKey('before').execute(trx));
      assert.ok(walBytes(dbFile) > 0);
      const events = await checkpointBesideTransaction(deps, () => deps.engine.storage.emptyLog());
      assert.deepEqual(events, ['transaction wrote', 'transaction ends', 'checkpoint ran']);
      assert.equal(walBytes(dbFile), 0);
      assert.deepEqual(committedNames(dbFile), ['before', 'claim']);
    } finally {
      await deps.close();
    }
  });

  it("runs a command's own copy of the log (upkeepHere) after the runner's transaction, not beside it", async () => {
    const deps = createDeps({ dbFile: freshDbFile() });
    try {
      const host = deps.engine.jobHost?.({ callerCopiesWal: true, handOffMs: HAND_OFF_MS });
      assert.ok(host);
      const events = await checkpointBesideTransaction(deps, () => host.upkeepHere());
      assert.deepEqual(events, ['transaction wrote', 'transaction ends', 'checkpoint ran']);
    } finally {
      await deps.close();
    }
  });
});
