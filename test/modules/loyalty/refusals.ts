import assert from 'node:assert/strict';
import { dbFingerprint } from '../../support/db.js';
import type { TestResponse, TestServer } from '../../support/server.js';
import { sqliteOf } from '../../support/sqlite.js';

/** Sends a request that must be refused: asserts its whole error body (and status), and that the database did not change. */
export async function assertRefused(
  server: TestServer,
  send: () => Promise<TestResponse>,
  expected: (res: TestResponse) => { code: number },
) {
  const before = dbFingerprint(sqliteOf(server.deps));
  const res = await send();
  assert.deepEqual({ status: res.status, body: res.body }, { status: expected(res).code, body: expected(res) });
  assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
}
