import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { globRegex } from '../../src/db/dialect.js';
import { databaseErrorKind } from '../../src/db/errors.js';
import { migratePostgres } from '../../src/db/postgres/migrate.js';
import { openPostgresEngine } from '../../src/db/postgres/engine.js';
import { retryStats } from '../../src/db/postgres/retries.js';
import { loadMigrations } from '../../src/db/sqlite/migrate.js';
import { AppError } from '../../src/lib/errors.js';
import { createDeps, openDeps } from '../../src/root/create-deps.js';
import { queryTemplate } from '../../src/db/query-template.js';
import { freshDbFile } from '../support/db.js';
import { databaseUrl, postgresForTests, type TestPostgres } from '../support/postgres.js';

const found = await postgresForTests();
const BASELINE = 31;
const EXPECTED_VERSIONS = [
  BASELINE,
  ...loadMigrations()
    .map((m) => m.version)
    .filter((v) => v > BASELINE),
];

async function recordedVersions(url: string): Promise<number[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
    return rows.map((row) => Number(row.version));
  } finally {
    await client.end();
  }
}

describe('the PostgreSQL engine', { skip: found.skip }, () => {
  let server: TestPostgres;
  before(() => {
    server = (found as { server: TestPostgres }).server;
  });
  after(() => server.close());

  it('opens a postgres:// URL through openDeps, migrated to the versions SQLite has from 31 on', async () => {
    const url = await server.emptyDatabase();
    const deps = await openDeps({ dbFile: url });
    try {
      assert.deepEqual(await recordedVersions(url), EXPECTED_VERSIONS);
      const { rows } = await sql<{ n: number; total: number }>`
        SELECT count(*) AS n, sum(total) AS total FROM redemption_counts`.execute(deps.db);
      // int8 and numeric answered as numbers, as better-sqlite3 answers them
      assert.deepEqual(rows, [{ n: 64, total: 0 }]); // (object, result): four kinds in 16 slots each
    } finally {
      await deps.close();
    }
  });

  it('ends its pool on close even when no statement went through Kysely (a command refused at once)', async () => {
    const url = await server.migratedDatabase();
    const engine = await openPostgresEngine(url); // the collation check took a pool connection
    assert.equal(engine.pool.totalCount, 1);
    await engine.close();
    assert.deepEqual([engine.pool.ended, engine.pool.totalCount], [true, 0]);
  });

  it('several migrators started at once on one fresh database migrate it once', async () => {
    const url = await server.emptyDatabase();
    const results = await Promise.all(Array.from({ length: 4 }, () => migratePostgres(url)));
    const latest = EXPECTED_VERSIONS.at(-1);
    assert.deepEqual(
      results.map((r) => r.version),
      [latest, latest, latest, latest],
    );
    const names = results.map((r) => r.applied).filter((applied) => applied.length > 0);
    assert.equal(names.length, 1, 'one migrator applied the files, the others found them applied');
    assert.deepEqual(
      names[0]?.map((name) => Number(name.slice(0, 4))),
      EXPECTED_VERSIONS,
    );
    assert.deepEqual(await recordedVersions(url), EXPECTED_VERSIONS);
  });

  it('refuses a database whose text does not order by bytes (an ICU default collation)', async (t) => {
    const name = `promo_icu_${process.pid}`;
    const admin = new pg.Client(databaseUrl(await server.emptyDatabase(), 'postgres'));
    await admin.connect();
    try {
      await admin.query(
        `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'und' LC_COLLATE 'C' LC_CTYPE 'C'`,
      );
    } catch (error) {
      await admin.end();
      return t.skip(`this PostgreSQL cannot make an ICU database: ${(error as Error).message}`);
    }
    try {
      await assert.rejects(openPostgresEngine(databaseUrl(await server.emptyDatabase(), name)), (error) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.key, 'database_collation');
        assert.equal(
          error.details,
          `The PostgreSQL database ${name} has collation C and ctype C (provider ICU); promo needs C for both (text in byte order, as SQLite): CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
        );
        return true;
      });
    } finally {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it("reads PostgreSQL's errors as SQLite's: unique, foreign key, check, lock timeout", async () => {
    const engine = await openPostgresEngine(await server.migratedDatabase());
    const kindOf = (statement: string) =>
      sql
        .raw(statement)
        .execute(engine.db)
        .then(
          () => 'none',
          (error) => databaseErrorKind(error),
        );
    try {
      await sql`INSERT INTO categories (id, name, hierarchy, created_at) VALUES ('cat_1', 'a', 1, 't')`.execute(
        engine.db,
      );
      assert.equal(
        await kindOf("INSERT INTO categories (id, name, hierarchy, created_at) VALUES ('cat_1', 'b', 1, 't')"),
        'unique',
      );
      assert.equal(
        await kindOf(
          "INSERT INTO vouchers (id, code, type, category_id, created_at) VALUES ('v_1', 'C1', 'DISCOUNT_VOUCHER', 'cat_none', 't')",
        ),
        'foreign_key',
      );
      assert.equal(await kindOf("UPDATE categories SET hierarchy = -1 WHERE id = 'cat_1'"), 'check');
      const holder = await engine.pool.connect();
      try {
        await holder.query("BEGIN; UPDATE categories SET name = 'held' WHERE id = 'cat_1'");
        assert.equal(
          await kindOf("SET lock_timeout = 50; UPDATE categories SET name = 'waits' WHERE id = 'cat_1'"),
          'busy',
        );
      } finally {
        await holder.query('ROLLBACK');
        holder.release();
      }
    } finally {
      await engine.close();
    }
  });

  it('re-runs a transaction that lost a deadlock, whole, so both writers succeed', async () => {
    const engine = await openPostgresEngine(await server.migratedDatabase());
    try {
      await sql`INSERT INTO categories (id, name, hierarchy, created_at)
                VALUES ('cat_a', 'a', 1, 't'), ('cat_b', 'b', 1, 't')`.execute(engine.db);
      const before = retryStats.retries;
      let runs = 0;
      let bothIn!: () => void;
      const gate = new Promise<void>((resolve) => {
        let arrived = 0;
        bothIn = () => {
          if (++arrived === 2) resolve();
        };
      });
      // Each locks one row, waits until the other has its own, then asks for the other's: one
      // of them is chosen as the deadlock's victim, undone and run again.
      const crossing = (first: string, second: string) =>
        engine.db.transaction().execute(async (trx) => {
          runs++;
          await sql`UPDATE categories SET hierarchy = hierarchy + 1 WHERE id = ${first}`.execute(trx);
          if (runs <= 2) {
            bothIn();
            await gate;
          }
          await sql`UPDATE categories SET hierarchy = hierarchy + 1 WHERE id = ${second}`.execute(trx);
        });
      await Promise.all([crossing('cat_a', 'cat_b'), crossing('cat_b', 'cat_a')]);
      assert.equal(runs, 3, 'two runs, and the victim once more');
      assert.equal(retryStats.retries - before, 1);
      const { rows } = await sql<{ id: string; hierarchy: number }>`
        SELECT id, hierarchy FROM categories ORDER BY id`.execute(engine.db);
      assert.deepEqual(rows, [
        { id: 'cat_a', hierarchy: 3 },
        { id: 'cat_b', hierarchy: 3 },
      ]);
    } finally {
      await engine.close();
    }
  });

  it("matches codes as SQLite's GLOB does (globRegex): literals, classes, ? and *", async () => {
    const patterns = ['PRE-[0-9][0-9]', 'A?C', 'X*', '[*]Z', 'a.b', '[^a-c]1', 'Q[]]', '50%_off'];
    const texts = [
      'PRE-12',
      'PRE-1a',
      'ABC',
      'AC',
      'X',
      'Xyz',
      '*Z',
      'aZ',
      'a.b',
      'axb',
      'd1',
      'b1',
      'Q]',
      '50%_off',
      '50x_off',
    ];
    const sqlite = new BetterSqlite3(':memory:');
    const client = new pg.Client(await server.migratedDatabase());
    await client.connect();
    try {
      for (const pattern of patterns) {
        const expected = texts.filter(
          (t) => (sqlite.prepare('SELECT ? GLOB ? AS m').get(t, pattern) as { m: number }).m === 1,
        );
        const { rows } = await client.query<{ t: string }>('SELECT t FROM unnest($1::text[]) AS t WHERE t ~ $2', [
          texts,
          globRegex(pattern),
        ]);
        assert.deepEqual(
          rows.map((row) => row.t),
          expected,
          pattern,
        );
      }
    } finally {
      sqlite.close();
      await client.end();
    }
  });

  it('runs one query template on a SQLite file and on PostgreSQL in the same process, each with its own SQL', async () => {
    const byId = queryTemplate<{ id: string }, { id: string; name: string }>((db, param) =>
      db.selectFrom('categories').select(['id', 'name']).where('id', '=', param('id')),
    );
    const insert = sql`INSERT INTO categories (id, name, hierarchy, created_at) VALUES ('cat_t', 'both', 1, 't')`;
    const file = createDeps({ dbFile: freshDbFile() });
    const engine = await openPostgresEngine(await server.migratedDatabase());
    try {
      await insert.execute(file.db);
      await insert.execute(engine.db);
      assert.deepEqual(await byId(file.db, { id: 'cat_t' }), [{ id: 'cat_t', name: 'both' }]);
      assert.deepEqual(await byId(engine.db, { id: 'cat_t' }), [{ id: 'cat_t', name: 'both' }]);
    } finally {
      await file.close();
      await engine.close();
    }
  });
});
