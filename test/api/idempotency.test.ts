import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { expireIdempotencyKeys } from '../../src/modules/idempotency/idempotency.service.js';
import { spawnServe } from '../support/cli.js';
import { freshDatabase } from '../support/engine.js';
import { openRows } from '../support/sqlite.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';

const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });

function countOrders(file: string): number {
  const sqlite = openRows(file);
  try {
    return (sqlite.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n;
  } finally {
    sqlite.close();
  }
}

/** customer events by type for one source_id: what the requests wrote. */
function eventsOf(file: string, sourceId: string): Record<string, number> {
  const sqlite = openRows(file);
  try {
    const rows = sqlite
      .prepare(
        `SELECT e.type, count(*) AS n FROM customer_events e JOIN customers c ON c.id = e.customer_id WHERE c.source_id = ? GROUP BY e.type ORDER BY e.type`,
      )
      .all(sourceId) as { type: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.type, r.n]));
  } finally {
    sqlite.close();
  }
}

describe('Idempotency-Key', () => {
  let server: TestServer;
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  it('answers a retry with the first answer, byte for byte, and writes nothing again', async () => {
    const body = { amount: 2500, status: 'CREATED' };
    const orders = countOrders(server.dbFile);
    const first = await server.request('POST', '/v1/orders', { body, ...keyed('k-1') });
    clock.advance(1000);
    const retry = await server.request('POST', '/v1/orders', { body, ...keyed('k-1') });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(retry.text, first.text);
    assert.equal(countOrders(server.dbFile), orders + 1);
    // Without the key the same body creates another order.
    const plain = await server.request('POST', '/v1/orders', { body });
    assert.notEqual(plain.body.id, first.body.id);
    assert.equal(countOrders(server.dbFile), orders + 2);
  });

  it('refuses the same key with another request: 422, nothing written', async () => {
    await server.request('POST', '/v1/customers', { body: { source_id: 'idem-2' }, ...keyed('k-2') });
    const other = await server.request('POST', '/v1/customers', { body: { source_id: 'idem-2b' }, ...keyed('k-2') });
    assert.equal(other.status, 422);
    assert.deepEqual(
      other.body,
      errorBody(other, {
        code: 422,
        key: 'idempotency_key_reused',
        message: 'Idempotency key reused',
        details: 'Idempotency-Key k-2 was used with another request',
      }),
    );
    assert.deepEqual(eventsOf(server.dbFile, 'idem-2b'), {});
    const otherPath = await server.request('POST', '/v1/customers?x=1', {
      body: { source_id: 'idem-2' },
      ...keyed('k-2'),
    });
    assert.equal(otherPath.status, 422);
  });

  it('keeps keys per credential: the client key has its own k-3', async () => {
    const server3 = await server.request('POST', '/v1/customers', { body: { source_id: 'idem-3' }, ...keyed('k-3') });
    const client3 = await server.request('POST', '/client/v1/customers', {
      auth: 'client',
      body: { source_id: 'idem-3c' },
      ...keyed('k-3'),
    });
    assert.equal(server3.status, 200);
    assert.notEqual(client3.status, 422);
    assert.equal(client3.headers.get('idempotent-replayed'), null);
  });

  it('does not remember a request that wrote nothing: a retry runs again', async () => {
    const bad = await server.request('POST', '/v1/customers', { body: { source_id: 7 }, ...keyed('k-4') });
    assert.equal(bad.status, 400);
    const again = await server.request('POST', '/v1/customers', { body: { source_id: 7 }, ...keyed('k-4') });
    assert.equal(again.status, 400);
    assert.equal(again.headers.get('idempotent-replayed'), null);
    assert.notEqual(again.body.request_id, bad.body.request_id);
  });

  it('refuses a key longer than 255 characters', async () => {
    const res = await server.request('POST', '/v1/customers', {
      body: { source_id: 'idem-5' },
      ...keyed('k'.repeat(256)),
    });
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: 'Idempotency-Key must be at most 255 characters',
      }),
    );
  });

  it('ignores the header on GET, and forgets keys after 24 hours (the sweep deletes them)', async () => {
    const get = await server.request('GET', '/v1/customers/idem-2', keyed('k-2'));
    assert.equal(get.status, 200);
    assert.equal(get.headers.get('idempotent-replayed'), null);
    const first = await server.request('POST', '/v1/orders', { body: { amount: 100 }, ...keyed('k-6') });
    clock.advance(24 * 60 * 60 * 1000 + 1);
    const later = await server.request('POST', '/v1/orders', { body: { amount: 100 }, ...keyed('k-6') });
    assert.equal(later.headers.get('idempotent-replayed'), null);
    assert.notEqual(later.body.id, first.body.id);
    clock.advance(24 * 60 * 60 * 1000 + 1);
    assert.ok((await expireIdempotencyKeys(server.deps)) >= 1);
    const sqlite = openRows(server.dbFile);
    assert.equal((sqlite.prepare('SELECT count(*) AS n FROM idempotency_keys').get() as { n: number }).n, 0);
    sqlite.close();
  });
});

describe('Idempotency-Key across two processes', () => {
  it('writes one order when the same keyed request reaches two servers at the same time', async () => {
    const file = await freshDatabase();
    const env = { PROMO_APP_ID: 'idem-app', PROMO_APP_TOKEN: 'idem-token' };
    const a = await spawnServe(['--db', file], env);
    const b = await spawnServe(['--db', file], env);
    try {
      for (let i = 0; i < 20; i++) {
        const send = (server: typeof a) =>
          fetch(`${server.url}/v1/orders`, {
            method: 'POST',
            headers: {
              'X-App-Id': env.PROMO_APP_ID,
              'X-App-Token': env.PROMO_APP_TOKEN,
              'Content-Type': 'application/json',
              'Idempotency-Key': `key-${i}`,
            },
            body: JSON.stringify({ amount: 1000 + i }),
          });
        const answers = await Promise.all([send(a), send(b)]);
        const texts = await Promise.all(answers.map((r) => r.text()));
        assert.deepEqual(
          answers.map((r) => r.status),
          [200, 200],
        );
        assert.equal(texts[0], texts[1]);
        assert.deepEqual(answers.map((r) => r.headers.get('idempotent-replayed')).sort(), ['true', null].sort());
        assert.equal(countOrders(file), i + 1);
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
