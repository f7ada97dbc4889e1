import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { onPostgres } from '../support/engine.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';

/**
 * Takes the customers table's write lock from a connection of the test's own, as another
 * process would: SQLite's one write lock, or an EXCLUSIVE lock on PostgreSQL (reads still pass).
 * Answers the function that lets it go.
 */
async function holdCustomersLock(database: string): Promise<() => Promise<void>> {
  if (!onPostgres()) {
    const other = new Database(database);
    other.exec('BEGIN IMMEDIATE');
    return async () => {
      other.exec('ROLLBACK');
      other.close();
    };
  }
  const other = new pg.Client({ connectionString: database });
  await other.connect();
  await other.query('BEGIN');
  await other.query('LOCK TABLE customers IN EXCLUSIVE MODE');
  return async () => {
    await other.query('ROLLBACK');
    await other.end();
  };
}

/**
 * A write that waits for a lock longer than the database's timeout (SQLite's busy_timeout,
 * PostgreSQL's lock_timeout: 5 s each) is the database's momentary state, not the request's
 * fault: 503 with Retry-After, and nothing written.
 */
describe('a database that stays locked', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers a write 503 database_busy with Retry-After, writes nothing, and takes the write once the lock is gone', async () => {
    const release = await holdCustomersLock(server.dbFile);
    const busy = await server.request('POST', '/v1/customers', { body: { source_id: 'locked-out' } }).finally(release);
    assert.deepEqual(
      [busy.status, busy.headers.get('retry-after'), busy.body],
      [
        503,
        '1',
        errorBody(busy, {
          code: 503,
          key: 'database_busy',
          message: 'Database busy',
          details: 'The database stayed locked; retry the request',
        }),
      ],
    );
    assert.equal((await server.request('GET', '/v1/customers/locked-out')).status, 404);
    const retried = await server.request('POST', '/v1/customers', { body: { source_id: 'locked-out' } });
    assert.deepEqual([retried.status, (retried.body as { source_id: string }).source_id], [200, 'locked-out']);
  });
});
