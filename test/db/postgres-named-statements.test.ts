import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { openPool } from '../../src/db/postgres/connect.js';
import { openPostgresEngine, type PostgresEngine } from '../../src/db/postgres/engine.js';
import {
  MAX_NAMED_PARAMETERS,
  MAX_PREPARED_PER_CONNECTION,
  statementName,
} from '../../src/db/postgres/named-statements.js';
import { sharedRateLimiters } from '../../src/db/postgres/rate-limits.js';
import { retryStats } from '../../src/db/postgres/retries.js';
import { postgresForTests, type TestPostgres } from '../support/postgres.js';
import { giftCard, percentVoucher } from '../api/redemptions/fixtures.js';
import { startTestServer } from '../support/server.js';

const found = await postgresForTests();

interface Prepared {
  name: string;
  statement: string;
  from_sql: boolean;
  runs: number;
}

/** What the pool's one connection holds prepared (pg_prepared_statements is per session), by name. */
async function preparedOn(pool: pg.Pool): Promise<Prepared[]> {
  const { rows } = await pool.query<Prepared>(
    `SELECT name, statement, from_sql, generic_plans + custom_plans AS runs
       FROM pg_prepared_statements ORDER BY name`,
  );
  return rows;
}

/** A SELECT of `n` parameters: `id IN ($1, ..., $n)`, one text per length. */
const inList = (engine: PostgresEngine, n: number) =>
  sql<{ n: number }>`SELECT count(*) AS n FROM categories WHERE id IN (${sql.join(
    Array.from({ length: n }, (_, i) => `cat_${i}`),
  )})`.execute(engine.db);

const server = found.server as TestPostgres;
after(() => server?.close());

describe('named statements on PostgreSQL', { skip: found.skip }, () => {
  let engine: PostgresEngine;
  before(async () => {
    // One connection a pool: pg_prepared_statements shows one session's statements.
    engine = await openPostgresEngine(await server.migratedDatabase(), { poolSize: 1, readPoolSize: 1 });
  });
  after(() => engine.close());

  /** What the read pool's one connection holds: statements outside a transaction run there. */
  const preparedForReads = () => preparedOn(engine.readPool as pg.Pool);

  it("prepares a text on its second run, under its hash's name, and runs it again without parsing", async () => {
    const text = 'SELECT count(*) AS n FROM categories WHERE id = $1';
    const named = () =>
      sql<{ n: number }>`SELECT count(*) AS n FROM categories WHERE id = ${'cat_x'}`.execute(engine.db);
    assert.deepEqual((await named()).rows, [{ n: 0 }]);
    assert.deepEqual(await preparedForReads(), [], 'a text seen once runs unnamed');
    for (let run = 0; run < 3; run++) assert.deepEqual((await named()).rows, [{ n: 0 }]);
    // One Parse (the row), three runs of it.
    assert.deepEqual(await preparedForReads(), [
      { name: statementName(text), statement: text, from_sql: false, runs: 3 },
    ]);
  });

  it('keeps a text prepared in a transaction that rolled back (a lost race re-run): its next run finds it', async () => {
    const text = 'SELECT count(*) AS n FROM categories WHERE name = $1';
    const count = (db: PostgresEngine['db']) =>
      sql<{ n: number }>`SELECT count(*) AS n FROM categories WHERE name = ${'rolled'}`.execute(db);
    // In transactions: their pool's one connection.
    const inTransaction = () => engine.db.transaction().execute((trx) => count(trx));
    await inTransaction();
    await assert.rejects(
      engine.db.transaction().execute(async (trx) => {
        await count(trx); // its second run: prepared here
        throw new Error('undone');
      }),
      /undone/,
    );
    assert.deepEqual((await inTransaction()).rows, [{ n: 0 }]);
    const prepared = (await preparedOn(engine.pool)).filter((p) => p.statement === text);
    assert.deepEqual(prepared, [{ name: statementName(text), statement: text, from_sql: false, runs: 2 }]);
  });

  it('never names a list (LIMIT: its plan depends on the value), a text without parameters, or one of too many', async () => {
    const before = await preparedForReads();
    for (let run = 0; run < 3; run++) {
      await sql`SELECT id FROM categories WHERE name = ${'a'} ORDER BY id LIMIT ${10}`.execute(engine.db);
      await sql`SELECT count(*) AS n FROM categories`.execute(engine.db);
      assert.deepEqual((await inList(engine, MAX_NAMED_PARAMETERS + 1)).rows, [{ n: 0 }]);
    }
    assert.deepEqual(await preparedForReads(), before);
  });

  it(`prepares at most ${MAX_PREPARED_PER_CONNECTION} texts a connection; the rest run unnamed and answer alike`, async () => {
    // As many IN lists of distinct lengths as the bound (with the first test's text: one more).
    for (let length = 1; length <= MAX_PREPARED_PER_CONNECTION; length++)
      for (let run = 0; run < 2; run++) assert.deepEqual((await inList(engine, length)).rows, [{ n: 0 }]);
    const prepared = await preparedForReads();
    assert.equal(prepared.length, MAX_PREPARED_PER_CONNECTION);
    // A text past the bound, seen twice and more: still unnamed, still right.
    await sql`INSERT INTO categories (id, name, hierarchy, created_at) VALUES ('cat_7', 'seven', 1, 't')`.execute(
      engine.db,
    );
    const late = () => sql<{ id: string }>`SELECT id FROM categories WHERE name = ${'seven'}`.execute(engine.db);
    for (let run = 0; run < 3; run++) assert.deepEqual((await late()).rows, [{ id: 'cat_7' }]);
    assert.deepEqual(await preparedForReads(), prepared);
  });
});

describe('a named statement that a migration made stale', { skip: found.skip }, () => {
  let url: string;
  let engine: PostgresEngine;
  before(async () => {
    url = await server.migratedDatabase();
    engine = await openPostgresEngine(url, { poolSize: 1 });
    await sql`INSERT INTO categories (id, name, hierarchy, created_at) VALUES ('cat_1', 'one', 1, 't')`.execute(
      engine.db,
    );
  });
  after(() => engine.close());

  /** Another server's migration: a column added to categories. */
  async function addColumn(name: string): Promise<void> {
    const client = new pg.Client(url);
    await client.connect();
    await client.query(`ALTER TABLE categories ADD COLUMN ${name} integer NOT NULL DEFAULT 7`);
    await client.end();
  }

  const everything = (db: PostgresEngine['db']) =>
    sql<Record<string, unknown>>`SELECT * FROM categories WHERE id = ${'cat_1'}`.execute(db);

  it('runs again under a new name outside a transaction, answering the new column', async () => {
    for (let run = 0; run < 3; run++) await everything(engine.db);
    await addColumn('probe_a');
    const { rows } = await everything(engine.db);
    assert.deepEqual(
      rows.map((row) => [row.id, row.probe_a]),
      [['cat_1', 7]],
    );
  });

  it('inside a transaction, runs the whole transaction again (a retry), the statement under a new name', async () => {
    // Prepared on the transactions' pool: a statement outside a transaction runs on the read pool.
    for (let run = 0; run < 3; run++) await engine.db.transaction().execute((trx) => everything(trx));
    await addColumn('probe_b');
    const retried = retryStats.retries;
    let attempts = 0;
    const row = await engine.db.transaction().execute(async (trx) => {
      attempts++;
      return (await everything(trx)).rows[0];
    });
    assert.deepEqual([row?.id, row?.probe_b, attempts, retryStats.retries - retried], ['cat_1', 7, 2, 1]);
  });
});

describe('PROMO_DB_NAMED_STATEMENTS=off (a pooler that cannot follow a prepared statement)', {
  skip: found.skip,
}, () => {
  it('prepares nothing', async () => {
    process.env.PROMO_DB_NAMED_STATEMENTS = 'off';
    const engine = await openPostgresEngine(await server.migratedDatabase(), { poolSize: 1, readPoolSize: 1 }).finally(
      () => {
        delete process.env.PROMO_DB_NAMED_STATEMENTS;
      },
    );
    try {
      for (let run = 0; run < 3; run++)
        assert.deepEqual((await sql`SELECT count(*) AS n FROM categories WHERE id = ${'x'}`.execute(engine.db)).rows, [
          { n: 0 },
        ]);
      assert.deepEqual(await preparedOn(engine.readPool as pg.Pool), []);
    } finally {
      await engine.close();
    }
  });
});

describe("a redemption's statements through the real app", { skip: found.skip }, () => {
  it('are prepared on the connection by the first redemptions and reused by the next, none prepared again', async () => {
    process.env.PROMO_DB_POOL = '1'; // pg_prepared_statements shows one session's statements
    const app = await startTestServer({ dbFile: await server.migratedDatabase() }).finally(() => {
      delete process.env.PROMO_DB_POOL;
    });
    try {
      await percentVoucher(app, 'PCT-1');
      await giftCard(app, 'GIFT-1', 100_000);
      const redeem = async () => {
        const res = await app.request('POST', '/v1/redemptions', {
          body: {
            customer: { source_id: 'named-customer' },
            order: {
              items: [
                { quantity: 2, price: 500 },
                { quantity: 1, price: 300 },
              ],
            },
            redeemables: [
              { object: 'voucher', id: 'PCT-1' },
              { object: 'voucher', id: 'GIFT-1', gift: { credits: 30 } },
            ],
          },
        });
        assert.equal(res.status, 200, res.text);
      };
      for (let i = 0; i < 3; i++) await redeem();
      const pool = (app.deps.engine as PostgresEngine).pool;
      const warm = await preparedOn(pool);
      for (let i = 0; i < 3; i++) await redeem();
      const after = await preparedOn(pool);
      assert.deepEqual(
        after.map((p) => [p.name, p.from_sql]),
        warm.map((p) => [statementName(p.statement), false]),
        "the same statements, each under its text's name",
      );
      const ranEachTime = after.filter((p, i) => {
        const more = p.runs - (warm[i]?.runs ?? 0);
        return more > 0 && more % 3 === 0;
      });
      // The statements every such redemption runs: 14 since its new order is inserted once (no update after).
      assert.ok(ranEachTime.length >= 14, `${ranEachTime.length} statements ran again, prepared once`);
    } finally {
      await app.close();
    }
  });
});

describe('the rate-limit store (db/postgres/rate-limits.ts)', { skip: found.skip }, () => {
  it("names its statements as promo's own: by their text's hash, prepared on the connection's first run", async () => {
    const pool = openPool(await server.migratedDatabase(), { poolSize: 1 });
    try {
      const limiter = await sharedRateLimiters(pool)(10, 60, new RateLimiterMemory({ points: 10, duration: 60 }));
      for (let run = 0; run < 3; run++) await limiter.consume('named-key');
      const prepared = (await preparedOn(pool)).map((p) => ({
        named: p.name === statementName(p.statement),
        upsert: /^\s*INSERT INTO \S*promo_rate_limits/.test(p.statement),
        runs: p.runs,
      }));
      assert.deepEqual(prepared, [{ named: true, upsert: true, runs: 3 }]);
    } finally {
      await pool.end();
    }
  });
});
