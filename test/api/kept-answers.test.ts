import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { runCli } from '../support/cli.js';
import { onPostgres } from '../support/engine.js';
import { errorBody, requestIdOf, startTestServer, type TestResponse, type TestServer } from '../support/server.js';

/** Changes a voucher's metadata from a connection of the test's own, as another process would. */
async function setMetadataElsewhere(database: string, code: string, metadata: object): Promise<void> {
  const text = JSON.stringify(metadata);
  if (!onPostgres()) {
    const other = new Database(database);
    try {
      other.prepare('UPDATE vouchers SET metadata = ? WHERE code = ?').run(text, code);
    } finally {
      other.close();
    }
    return;
  }
  const other = new pg.Client({ connectionString: database });
  await other.connect();
  try {
    await other.query('UPDATE vouchers SET metadata = $1 WHERE code = $2', [text, code]);
  } finally {
    await other.end();
  }
}

/** What a client sees of an answer, but its request id. */
const seen = (res: TestResponse) => ({
  status: res.status,
  type: res.headers.get('content-type'),
  length: res.headers.get('content-length'),
  text: res.text,
});

/**
 * A GET whose answer is its data alone is answered from memory while nothing commits
 * (http/kept-answers.ts): the same bytes, and any commit, by this server or by
 * anyone else, is seen by the very next request. On PostgreSQL nothing is kept (the engine
 * cannot see every commit): the same tests hold there by reading every time.
 */
describe('answers kept while nothing commits', () => {
  let server: TestServer;
  let customerId: string;
  before(async () => {
    server = await startTestServer();
    const voucher = await server.request('POST', '/v1/vouchers/KEPT-1', {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, metadata: { n: 1 } },
    });
    assert.equal(voucher.status, 200, voucher.text);
    const customer = await server.request('POST', '/v1/customers', { body: { source_id: 'kept', name: 'Kept' } });
    assert.equal(customer.status, 200, customer.text);
    customerId = customer.body.id;
  });
  after(() => server.close());

  const statementsOf = async (path: string) => {
    const before = server.deps.engine.stats().queries.statements;
    const res = await server.request('GET', path);
    return { res, statements: server.deps.engine.stats().queries.statements - before };
  };

  it('answers a GET asked for twice with the same bytes from then on, reading only the committed version', async () => {
    for (const path of ['/v1/vouchers/KEPT-1', `/v1/customers/${customerId}`]) {
      const first = await server.request('GET', path);
      const kept = await statementsOf(path); // the second answer of a URL is kept
      const again = await statementsOf(path);
      if (!onPostgres()) assert.ok(kept.statements > 1, `${path}: the second GET reads (${kept.statements})`);
      assert.deepEqual(seen(again.res), seen(first));
      assert.equal(first.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.notEqual(requestIdOf(again.res), requestIdOf(first));
      if (!onPostgres()) assert.equal(again.statements, 1, `${path}: only PRAGMA data_version`);
    }
  });

  it('shows a change made through the API at the next GET', async () => {
    await server.request('GET', '/v1/vouchers/KEPT-1');
    const updated = await server.request('PUT', '/v1/vouchers/KEPT-1', { body: { metadata: { n: 2 } } });
    assert.equal(updated.status, 200, updated.text);
    const read = await server.request('GET', '/v1/vouchers/KEPT-1');
    assert.deepEqual(read.body, updated.body);
  });

  it('shows a change committed by another process at the next GET', async () => {
    const kept = await server.request('GET', '/v1/vouchers/KEPT-1');
    await setMetadataElsewhere(server.dbFile, 'KEPT-1', { n: 3 });
    const read = await server.request('GET', '/v1/vouchers/KEPT-1');
    assert.deepEqual(read.body, { ...kept.body, metadata: { n: 3 } });
  });

  it('keeps no refusal: an unknown voucher is looked up again', async () => {
    const missing = await statementsOf('/v1/vouchers/KEPT-NONE');
    const again = await statementsOf('/v1/vouchers/KEPT-NONE');
    assert.deepEqual([missing.res.status, again.res.status], [404, 404]);
    if (!onPostgres()) assert.ok(again.statements > 1, `looked up again: ${again.statements} statements`);
  });

  it('names the route in the request log for a kept answer, as for a read one', async () => {
    const answers = [
      await server.request('GET', '/v1/vouchers/KEPT-1'),
      await server.request('GET', '/v1/vouchers/KEPT-1'),
    ];
    const lines = answers.map((res) => server.logLines.find((line) => line.req_id === requestIdOf(res)));
    assert.deepEqual(
      lines.map((line) => [line?.route, line?.status]),
      [
        ['/v1/vouchers/:code', 200],
        ['/v1/vouchers/:code', 200],
      ],
    );
  });

  it('gives a kept answer only to a caller the current keys admit', async () => {
    const refusedWith = (res: TestResponse, details: string) =>
      assert.deepEqual(
        [res.status, res.body],
        [401, errorBody(res, { code: 401, key: 'unauthorized', message: 'Unauthorized', details })],
      );
    // Asked for twice: the second answer is kept.
    for (let i = 0; i < 2; i++) assert.equal((await server.request('GET', '/v1/vouchers/KEPT-1')).status, 200);
    refusedWith(
      await server.request('GET', '/v1/vouchers/KEPT-1', { auth: 'client' }),
      'Client-side keys open only /client/v1 paths',
    );
    const revoked = await runCli(['keys', 'revoke', server.serverKey.app_id, '--db', server.dbFile]);
    assert.equal(revoked.code, 0, revoked.stderr);
    refusedWith(await server.request('GET', '/v1/vouchers/KEPT-1'), 'Invalid X-App-Id or X-App-Token');
  });
});
