import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { loadMigrations, migrate } from '../../src/db/sqlite/migrate.js';
import { tempDir } from '../support/db.js';
import { applyPostgresMigrations, postgresForTests, postgresMigrationFiles } from '../support/postgres.js';
import { postgresShape, sqliteShape, type SchemaShape } from '../support/schema-shape.js';

/**
 * sql/postgres/ against the SQLite migrations: a fresh SQLite file migrated by promo's own
 * migrator and a fresh PostgreSQL database with the baseline loaded must expose the same schema
 * (tables, columns in order with their type class, nullability and generation, keys, foreign
 * keys, indexes with their columns, the view and the triggers), apart from the one documented
 * difference: the trigger-kept counters have a `slot` column on PostgreSQL.
 */
const BASELINE_VERSION = 31;
/** Every version sql/postgres/ records: the baseline, then each later migration under its number. */
const POSTGRES_VERSIONS = postgresMigrationFiles().map((m) => m.version);

/**
 * Indexes only PostgreSQL has, each because SQLite serves the same read from an index it has in
 * another form (the migration that adds it says how): set apart before the shapes are compared.
 */
const POSTGRES_ONLY_INDEXES = ['customers_source_id_order'];

/** The counters that are split into 16 slots on PostgreSQL (readers sum them). */
const SLOTTED = ['customer_counts', 'order_counts', 'publication_counts', 'redemption_counts'];

/** What the SQLite shape becomes on PostgreSQL: each slotted counter gains `slot` in its key. */
function withCounterSlots(shape: SchemaShape): SchemaShape {
  const tables = { ...shape.tables };
  const keys = { ...shape.keys };
  for (const table of SLOTTED) {
    const columns = [...(tables[table] ?? [])];
    columns.splice(
      columns.findIndex((c) => c.name === 'total'),
      0,
      { name: 'slot', type: 'integer', notNull: true, generated: false },
    );
    tables[table] = columns;
    const key = keys[table] ?? { primary: [], unique: [] };
    keys[table] = { ...key, primary: [...key.primary, 'slot'] };
  }
  return { ...shape, tables, keys };
}

describe('the PostgreSQL migrations list the versions of the SQLite ones', () => {
  it('a baseline stands for every version up to 31; every later version exists in both', () => {
    const sqliteVersions = loadMigrations().map((m) => m.version);
    const postgres = postgresMigrationFiles();
    assert.deepEqual(
      postgres.slice(0, 1).map((m) => m.name),
      [`00${BASELINE_VERSION}_baseline`],
    );
    assert.ok(sqliteVersions.includes(BASELINE_VERSION), `SQLite has a migration ${BASELINE_VERSION}`);
    assert.deepEqual(
      postgres.slice(1).map((m) => m.version),
      sqliteVersions.filter((v) => v > BASELINE_VERSION),
    );
  });
});

const found = await postgresForTests();

describe('the PostgreSQL baseline has the SQLite schema', { skip: found.skip }, () => {
  const server = found.server;
  let sqlite: SchemaShape;
  let postgres: SchemaShape;
  let postgresOnly: string[];
  let client: pg.Client;
  let versions: number[];
  let loadSeconds: number;

  before(async () => {
    assert.ok(server);
    const file = new BetterSqlite3(`${tempDir()}/promo.db`);
    migrate(file);
    sqlite = sqliteShape(file);
    file.close();

    const url = await server.emptyDatabase();
    const started = performance.now();
    versions = await applyPostgresMigrations(url);
    loadSeconds = (performance.now() - started) / 1000;
    client = new pg.Client(url);
    await client.connect();
    const shape = await postgresShape(client);
    postgresOnly = Object.keys(shape.indexes).filter((name) => POSTGRES_ONLY_INDEXES.includes(name));
    const shared = Object.entries(shape.indexes).filter(([name]) => !POSTGRES_ONLY_INDEXES.includes(name));
    postgres = { ...shape, indexes: Object.fromEntries(shared) };
  });

  after(async () => {
    await client?.end();
    await server?.close();
  });

  it('records the baseline as version 31, then every later migration', (t) => {
    assert.deepEqual(versions, POSTGRES_VERSIONS);
    assert.equal(versions[0], BASELINE_VERSION);
    assert.ok(server);
    t.diagnostic(
      `PostgreSQL: ${server.origin}; initdb + start ${server.startSeconds.toFixed(2)} s; baseline loaded in ${loadSeconds.toFixed(2)} s`,
    );
  });

  it('has the same tables, and their columns in the same order, type class, nullability and generation', () => {
    assert.deepEqual(postgres.tables, withCounterSlots(sqlite).tables);
  });

  it('has the same primary keys and unique constraints (the counters keyed by slot too)', () => {
    assert.deepEqual(postgres.keys, withCounterSlots(sqlite).keys);
  });

  it('has the same foreign keys, with the same ON DELETE', () => {
    assert.deepEqual(postgres.foreignKeys, sqlite.foreignKeys);
  });

  it('has the same indexes: names, tables, uniqueness, partial or not, and columns with the row key SQLite appends', () => {
    // 132 in the baseline, two more with the webhooks' outbox (0032), one fewer on redemptions (0033), one for the webhooks' retention sweep (0034), one for their fan-out (0035), one for categories' insert order (0036).
    assert.equal(Object.keys(sqlite.indexes).length, 136);
    assert.deepEqual(postgres.indexes, sqlite.indexes);
  });

  it('has the indexes only PostgreSQL needs', () => {
    assert.deepEqual(postgresOnly, POSTGRES_ONLY_INDEXES);
  });

  it('has the same view and the same triggers on the same tables', () => {
    assert.deepEqual(postgres.views, ['ledger_openings']);
    assert.deepEqual(postgres.views, sqlite.views);
    assert.equal(sqlite.triggers.length, 19);
    assert.deepEqual(postgres.triggers, sqlite.triggers);
  });

  it('orders and folds text as SQLite does: collation and ctype C, lower() folding ASCII only as NOCASE', async () => {
    const { rows } = await client.query(`
      SELECT d.datcollate, d.datctype, t.datcollate AS cluster_collate, t.datctype AS cluster_ctype,
             lower('ÀBÇ-é-Z') AS folded, 'a_b' < 'aB' AS underscore_first, 'Z' < 'a' AS upper_first
      FROM pg_database d, pg_database t WHERE d.datname = current_database() AND t.datname = 'template1'`);
    assert.deepEqual(rows, [
      {
        datcollate: 'C',
        datctype: 'C',
        cluster_collate: 'C',
        cluster_ctype: 'C',
        folded: 'ÀbÇ-é-z',
        underscore_first: false,
        upper_first: true,
      },
    ]);
    const sqliteFold = new BetterSqlite3(':memory:')
      .prepare("SELECT lower('ÀBÇ-é-Z') AS folded, 'a_b' < 'aB' AS underscore_first, 'Z' < 'a' AS upper_first")
      .get();
    assert.deepEqual(sqliteFold, { folded: 'ÀbÇ-é-z', underscore_first: 0, upper_first: 1 });
  });

  it('starts every counter at zero in each of its 16 slots', async () => {
    const { rows } = await client.query(`
      SELECT 'customer_counts' AS t, count(*)::int AS slots, sum(total)::int AS total FROM customer_counts
      UNION ALL SELECT 'order_counts', count(*)::int, sum(total)::int FROM order_counts
      UNION ALL SELECT 'publication_counts', count(*)::int, sum(total)::int FROM publication_counts
      UNION ALL SELECT 'redemption_counts', count(*)::int, sum(total)::int FROM redemption_counts`);
    assert.deepEqual(rows, [
      { t: 'customer_counts', slots: 16, total: 0 },
      { t: 'order_counts', slots: 4 * 16, total: 0 },
      { t: 'publication_counts', slots: 2 * 16, total: 0 },
      { t: 'redemption_counts', slots: 4 * 16, total: 0 },
    ]);
  });

  it('clones migrated databases from a template, each at the latest version with collation C', async () => {
    assert.ok(server);
    const clones = [await server.migratedDatabase(), await server.migratedDatabase()];
    assert.equal(new Set(clones).size, 2);
    for (const clone of clones) {
      const c = new pg.Client(clone);
      await c.connect();
      const { rows } = await c.query(`SELECT (SELECT array_agg(version::int) FROM schema_migrations) AS versions,
        (SELECT datcollate FROM pg_database WHERE datname = current_database()) AS collate`);
      await c.end();
      assert.deepEqual(rows, [{ versions: POSTGRES_VERSIONS, collate: 'C' }]);
    }
  });
});
