import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import type { Deps } from '../../src/app/deps.js';
import { walBytes } from '../../src/db/sqlite/wal.js';
import { HAND_OFF_MS } from '../../src/jobs/portion-size.js';
import { createDeps } from '../../src/root/create-deps.js';
import { freshDbFile } from '../support/db.js';

const insertKey = (name: string) =>
  sql`INSERT INTO api_keys (app_id, kind, name, token_hash, created_at) VALUES (${name}, 'server', ${name}, 'h', 't')`;
/** What another connection sees: only what is committed. */
function committedNames(file: string): string[] {
  const other = new BetterSqlite3(file, { readonly: true });
  try {
    return (other.prepare('SELECT name FROM api_keys ORDER BY name').all() as { name: string }[]).map((r) => r.name);
  } finally {
    other.close();
  }
}
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
describe('checkpoints on the writer connection', () => {
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
