import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createKey, type CreatedKey } from '../../src/modules/auth/keys.service.js';
import { postgresForTests, type TestPostgres } from '../support/postgres.js';
import { startTestServer, type TestServer } from '../support/server.js';

const found = await postgresForTests();

/**
 * A key's budget on PostgreSQL is one budget for every server on the database
 * (db/postgres/rate-limits.ts): two engines on one database, each its own pool and app, as
 * two `promo serve` behind a load balancer would be. On SQLite each process counts its own.
 */
describe('rate limits shared across servers on PostgreSQL', { skip: found.skip }, () => {
  let postgres: TestPostgres;
  let a: TestServer;
  let b: TestServer;
  let limited: CreatedKey;
  before(async () => {
    postgres = (found as { server: TestPostgres }).server;
    a = await startTestServer({ dbFile: await postgres.migratedDatabase() });
    b = await startTestServer({ dbFile: a.dbFile });
    limited = await createKey(a.deps, { kind: 'server', name: 'three a minute', rateLimit: 3 });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await postgres?.close();
  });

  const read = (server: TestServer) =>
    server.request('GET', '/v1/customers', {
      auth: 'none',
      headers: { 'X-App-Id': limited.app_id, 'X-App-Token': limited.app_token },
    });

  it('spends one budget of 3 a minute across both servers: the fourth request, on either, is 429', async () => {
    const answers = [];
    for (const server of [a, b, a, b]) {
      const res = await read(server);
      answers.push([res.status, res.headers.get('x-rate-limit-limit'), res.headers.get('x-rate-limit-remaining')]);
    }
    assert.deepEqual(answers, [
      [200, '3', '2'],
      [200, '3', '1'],
      [200, '3', '0'],
      [429, '3', '0'],
    ]);
    assert.equal((await read(a)).status, 429);
    const { rows } = await sql<{ key: string; points: number }>`
      SELECT key, points FROM promo_rate_limits`.execute(a.deps.db);
    assert.deepEqual(rows, [{ key: `promo:${limited.app_id}`, points: 5 }]);
    const kind = await sql<{ relpersistence: string }>`
      SELECT relpersistence FROM pg_class WHERE relname = 'promo_rate_limits'`.execute(a.deps.db);
    assert.deepEqual(kind.rows, [{ relpersistence: 'u' }], 'unlogged: a count is not worth a durable commit');
  });
});
