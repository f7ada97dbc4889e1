import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { loadMigrations, migrate } from '../../src/db/sqlite/migrate.js';
import { migratePostgres } from '../../src/db/postgres/migrate.js';
import { tempDir } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';
import { postgresForTests, postgresMigrationFiles } from '../support/postgres.js';

/**
 * Migration 0036 on a database that already holds categories, on each engine: the rows it finds
 * get their seq (SQLite: the rowid, the order its list read; PostgreSQL: (created_at, id), the
 * order its list gave before), and every later insert is numbered after them; on PostgreSQL also
 * past a seq an insert names itself (promo copy's, which writes SQLite's numbers).
 */
const found = await postgresForTests();
const SEQ = 36;
const insert = (id: string, seq?: number) =>
  seq === undefined
    ? `INSERT INTO categories (id, name, hierarchy, created_at) VALUES ('${id}', '${id}', 0, '2026-01-01T00:00:00.000Z')`
    : `INSERT INTO categories (id, name, hierarchy, created_at, seq) VALUES ('${id}', '${id}', 0, '2026-01-01T00:00:00.000Z', ${seq})`;
const BEFORE = ['cat_c', 'cat_a', 'cat_b'];
const LISTED = 'SELECT id, seq FROM categories ORDER BY seq';

describe(
  'categories.seq (migration 0036) on SQLite',
  sqliteOnly('sql/sqlite/0036 migrating a file that holds categories'),
  () => {
    it('numbers the rows it finds by their rowid, then each new row by its own', () => {
      const sqlite = openSqlite(join(tempDir(), 'promo.db'));
      migrate(
        sqlite,
        loadMigrations().filter((m) => m.version < SEQ),
      );
      for (const id of BEFORE) sqlite.exec(insert(id));
      sqlite.exec("DELETE FROM categories WHERE id = 'cat_a'");
      migrate(sqlite);
      sqlite.exec(insert('cat_d'));
      sqlite.exec(insert('cat_e'));
      assert.deepEqual(sqlite.prepare(LISTED).all(), [
        { id: 'cat_c', seq: 1 },
        { id: 'cat_b', seq: 3 },
        { id: 'cat_d', seq: 4 },
        { id: 'cat_e', seq: 5 },
      ]);
      sqlite.close();
    });
  },
);

describe('categories.seq (migration 0036) on PostgreSQL', { skip: found.skip }, () => {
  after(() => found.server?.close());

  it('numbers the rows it finds by (created_at, id), then each new row after the highest seq seen', async () => {
    const url = await found.server!.emptyDatabase();
    await migratePostgres(
      url,
      postgresMigrationFiles().filter((m) => m.version < SEQ),
    );
    const client = new pg.Client(url);
    await client.connect();
    try {
      for (const id of BEFORE) await client.query(insert(id));
      await migratePostgres(url);
      await client.query(insert('cat_d'));
      await client.query(insert('cat_e', 9));
      await client.query(insert('cat_f'));
      const { rows } = await client.query<{ id: string; seq: string }>(LISTED);
      assert.deepEqual(
        rows.map((r) => ({ id: r.id, seq: Number(r.seq) })),
        [
          { id: 'cat_a', seq: 1 },
          { id: 'cat_b', seq: 2 },
          { id: 'cat_c', seq: 3 },
          { id: 'cat_d', seq: 4 },
          { id: 'cat_e', seq: 9 },
          { id: 'cat_f', seq: 10 },
        ],
      );
    } finally {
      await client.end();
    }
  });
});
