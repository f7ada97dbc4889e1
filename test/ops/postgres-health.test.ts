import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import parsePrometheus from 'parse-prometheus-text-format';
import { freshDbFile } from '../support/db.js';
import { databaseUrl, postgresForTests, type TestPostgres } from '../support/postgres.js';
import { errorBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';

const found = await postgresForTests();

interface Family {
  name: string;
  metrics: Array<{ labels?: Record<string, string>; value?: string }>;
}

/** The figures of /metrics whose names start with `prefix`, as `name{labels}` → value. */
async function figures(server: TestServer, prefix: string): Promise<Record<string, number>> {
  const res = await fetch(`${server.url}/metrics`);
  assert.equal(res.status, 200);
  const families = (parsePrometheus(await res.text()) as Family[]).filter((f) => f.name.startsWith(prefix));
  return Object.fromEntries(
    families.flatMap((f) =>
      f.metrics.map((m) => {
        const labels = Object.entries(m.labels ?? {}).map(([k, v]) => `${k}="${v}"`);
        return [`${f.name}${labels.length ? `{${labels.join(',')}}` : ''}`, Number(m.value)];
      }),
    ),
  );
}

const unavailable = (res: TestResponse, details: string) =>
  assert.deepEqual(
    { status: res.status, body: res.body },
    {
      status: 503,
      body: errorBody(res, { code: 503, key: 'database_unavailable', message: 'Database unavailable', details }),
    },
  );

describe('GET /health and /metrics on PostgreSQL', { skip: found.skip }, () => {
  let postgres: TestPostgres;
  let server: TestServer;
  const poolsBefore = { PROMO_DB_POOL: process.env.PROMO_DB_POOL, PROMO_DB_READ_POOL: process.env.PROMO_DB_READ_POOL };
  before(async () => {
    postgres = (found as { server: TestPostgres }).server;
    process.env.PROMO_DB_POOL = '2';
    process.env.PROMO_DB_READ_POOL = '2';
    server = await startTestServer({ dbFile: await postgres.migratedDatabase() });
  });
  after(async () => {
    for (const [name, value] of Object.entries(poolsBefore)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await server?.close();
    await postgres?.close();
  });

  const health = () => server.request('GET', '/health', { auth: 'none' });

  it('answers ok while the pool answers SELECT 1', async () => {
    const res = await health();
    assert.deepEqual({ status: res.status, body: res.body }, { status: 200, body: { status: 'ok' } });
  });

  /** Until every connection of a pool is open and in use. */
  const allBusy = async (pool: 'pool' | 'readPool') => {
    const stats = () => server.deps.engine.stats()[pool];
    while ((stats()?.idle ?? 1) > 0 || stats()?.total !== 2) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('shows the read pool on /metrics, and answers 503 when none of its connections is free within 2 s', async () => {
    // A statement outside a transaction runs on the read pool, as GET /health's SELECT 1 does.
    const busy = [1, 2].map(() => sql`SELECT pg_sleep(3)`.execute(server.deps.db));
    await allBusy('readPool');
    const waiting = health();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(await figures(server, 'promo_database_read_pool'), {
      'promo_database_read_pool_connections{state="open"}': 2,
      'promo_database_read_pool_connections{state="idle"}': 0,
      promo_database_read_pool_waiting: 1,
    });
    unavailable(await waiting, 'PostgreSQL did not answer SELECT 1 within 2000 ms');
    await Promise.all(busy);
    assert.equal((await health()).status, 200);
  });

  it('answers a read while transactions hold every connection of their pool, and shows that pool on /metrics', async () => {
    const created = await server.request('POST', '/v1/customers', { body: { source_id: 'beside-the-writes' } });
    assert.equal(created.status, 200, created.text);
    const sleeping = () => server.deps.db.transaction().execute((trx) => sql`SELECT pg_sleep(3)`.execute(trx));
    const busy = [sleeping(), sleeping()];
    await allBusy('pool');
    const queued = sleeping();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(await figures(server, 'promo_database_pool'), {
      'promo_database_pool_connections{state="open"}': 2,
      'promo_database_pool_connections{state="idle"}': 0,
      promo_database_pool_waiting: 1,
    });
    const started = Date.now();
    const read = await server.request('GET', '/v1/customers/beside-the-writes');
    assert.deepEqual([read.status, read.body], [200, created.body]);
    assert.ok(Date.now() - started < 2000, `the read waited ${Date.now() - started} ms for the transactions`);
    await Promise.all([...busy, queued]);
  });

  it('answers 503 while the database refuses connections, and ok again once it accepts them', async () => {
    const name = (await sql<{ name: string }>`SELECT current_database() AS name`.execute(server.deps.db)).rows[0]?.name;
    const admin = new pg.Client(databaseUrl(server.dbFile, 'postgres'));
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      // The pool drops the connections the server ended; the next check must open one.
      while ((server.deps.engine.stats().pool?.total ?? 0) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      unavailable(await health(), 'PostgreSQL refused SELECT 1 (55000)');
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
    } finally {
      await admin.end();
    }
    const res = await health();
    assert.deepEqual({ status: res.status, body: res.body }, { status: 200, body: { status: 'ok' } });
  });

  it('counts transactions re-run after a lost race, and those that lost every attempt', async () => {
    const before = await figures(server, 'promo_transaction_retries');
    // A key that is taken already fails every attempt the same way: 4 re-runs, then given up.
    await assert.rejects(
      server.deps.db
        .transaction()
        .execute((trx) =>
          sql`INSERT INTO schema_migrations (version, name, applied_at) VALUES (31, 'again', '')`.execute(trx),
        ),
      (error: { code?: string }) => error.code === '23505',
    );
    const now = await figures(server, 'promo_transaction_retries');
    assert.deepEqual(
      {
        retries: (now.promo_transaction_retries_total ?? 0) - (before.promo_transaction_retries_total ?? 0),
        exhausted:
          (now.promo_transaction_retries_exhausted_total ?? 0) -
          (before.promo_transaction_retries_exhausted_total ?? 0),
      },
      { retries: 4, exhausted: 1 },
    );
  });
});

describe('/metrics on SQLite', () => {
  it('shows no pool and no re-run transactions: the file has neither', async () => {
    const server = await startTestServer({ dbFile: freshDbFile() });
    try {
      assert.deepEqual(await figures(server, 'promo_database_pool'), {});
      assert.deepEqual(await figures(server, 'promo_database_read_pool'), {});
      assert.deepEqual(await figures(server, 'promo_transaction_retries'), {});
    } finally {
      await server.close();
    }
  });
});
