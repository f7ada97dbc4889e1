import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { migrate } from '../../src/db/sqlite/migrate.js';
import { tempDir } from '../support/db.js';
import { postgresForTests } from '../support/postgres.js';

/**
 * The baseline's PL/pgSQL triggers do what SQLite's do: the same writes, run on a SQLite file
 * migrated by promo's migrator and on a PostgreSQL database cloned from the baseline, leave the
 * same rows behind. The counters are read as their readers will read them on PostgreSQL: the
 * sum over the slots (on SQLite, the sum of one row).
 */
type Row = Record<string, unknown>;

interface Engine {
  run(sql: string, params?: unknown[]): Promise<void>;
  all(sql: string, params?: unknown[]): Promise<Row[]>;
}

function sqliteEngine(db: BetterSqlite3.Database): Engine {
  return {
    run: async (sql, params = []) => void db.prepare(sql).run(...params),
    all: async (sql, params = []) => db.prepare(sql).all(...params) as Row[],
  };
}

/** `?` placeholders become `$n`; bigint and sum() come back as numbers, as SQLite answers them. */
function postgresEngine(client: pg.Client): Engine {
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 20 || oid === 1700 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
  };
  const numbered = (sql: string): string => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    run: async (sql, params = []) => void (await client.query({ text: numbered(sql), values: params, types })),
    all: async (sql, params = []) => (await client.query({ text: numbered(sql), values: params, types })).rows as Row[],
  };
}

const T0 = '2026-11-28T10:00:00.000Z';
const T1 = '2026-11-28T11:00:00.000Z';

/** Products, a SKU and a STATIC collection of both; then both change. */
async function catalogWrites(db: Engine): Promise<Row[]> {
  await db.run("INSERT INTO products (id, created_at, updated_at) VALUES ('prod_1', ?, NULL), ('prod_2', ?, ?)", [
    T0,
    T0,
    T0,
  ]);
  await db.run("INSERT INTO skus (id, product_id, created_at) VALUES ('sku_1', 'prod_1', ?)", [T1]);
  await db.run("INSERT INTO product_collections (id, name, type, created_at) VALUES ('pc_1', 'c', 'STATIC', ?)", [T0]);
  await db.run(`INSERT INTO product_collection_items (collection_id, position, object, product_id, sku_id)
    VALUES ('pc_1', 1, 'product', 'prod_1', NULL), ('pc_1', 2, 'sku', 'prod_1', 'sku_1'), ('pc_1', 3, 'product', 'prod_2', NULL)`);
  await db.run("UPDATE products SET updated_at = ? WHERE id = 'prod_1'", [T1]);
  await db.run("UPDATE skus SET updated_at = ? WHERE id = 'sku_1'", [T1]);
  await db.run("UPDATE products SET name = 'same time' WHERE id = 'prod_2'");
  return db.all(
    'SELECT position, member_id, member_created_at, member_updated_at FROM product_collection_items ORDER BY position',
  );
}

/** Customers in one statement and one by one, a deletion, and a segment member's copied keys. */
async function customerWrites(db: Engine): Promise<Row[]> {
  await db.run(
    `INSERT INTO customers (id, source_id, created_at, updated_at)
    VALUES ('cust_1', 's1', ?, ?), ('cust_2', 's2', ?, ?), ('cust_3', NULL, ?, ?)`,
    [T0, T0, T0, T0, T0, T0],
  );
  await db.run("INSERT INTO customers (id, created_at, updated_at) VALUES ('cust_4', ?, ?)", [T0, T0]);
  await db.run("DELETE FROM customers WHERE id = 'cust_3'");
  await db.run(
    "INSERT INTO segments (id, name, type, initial_sync_status, created_at) VALUES ('seg_1', 's', 'static', 'DONE', ?)",
    [T0],
  );
  await db.run(`INSERT INTO segment_members (segment_id, customer_id, customer_seq, created_at, updated_at, source_id)
    SELECT 'seg_1', id, seq, created_at, updated_at, source_id FROM customers WHERE id IN ('cust_1', 'cust_2')`);
  await db.run("UPDATE customers SET updated_at = ?, source_id = 's1-new' WHERE id = 'cust_1'", [T1]);
  await db.run("UPDATE customers SET name = 'unchanged keys' WHERE id = 'cust_2'");
  const members = await db.all(
    'SELECT customer_id, customer_seq, updated_at, source_id FROM segment_members ORDER BY customer_id',
  );
  const counts = await db.all('SELECT sum(total) AS total FROM customer_counts');
  return [...members, ...counts];
}

/** Orders created, paid, canceled and deleted, alone and several in one statement. */
async function orderWrites(db: Engine): Promise<Row[]> {
  await db.run(
    `INSERT INTO orders (id, status, amount, created_at) VALUES
    ('ord_1', 'CREATED', 100, ?), ('ord_2', 'CREATED', 200, ?), ('ord_3', 'PAID', 300, ?)`,
    [T0, T0, T0],
  );
  await db.run(
    "INSERT INTO orders (id, status, amount, discount_amount, created_at) VALUES ('ord_4', 'FULFILLED', 50, 5, ?)",
    [T0],
  );
  await db.run("UPDATE orders SET status = 'PAID' WHERE id = 'ord_1'");
  await db.run("UPDATE orders SET status = 'CANCELED' WHERE id IN ('ord_2', 'ord_3')");
  await db.run("UPDATE orders SET status = 'FULFILLED' WHERE id = 'ord_4'");
  await db.run("DELETE FROM orders WHERE id = 'ord_2'");
  const counts = await db.all('SELECT status, sum(total) AS total FROM order_counts GROUP BY status ORDER BY status');
  return [...counts, ...(await db.all('SELECT id, total_amount FROM orders ORDER BY id'))];
}

/** Redemption records inserted, one changed from success to failure, one deleted. */
async function redemptionWrites(db: Engine): Promise<Row[]> {
  const insert = `INSERT INTO redemptions (id, object, created_at, result, status, failure_code, related_object_type, related_object_id, channel_type)
    VALUES (?, ?, ?, ?, ?, ?, 'voucher', 'v_1', 'API')`;
  await db.run(insert, ['r_1', 'redemption', T0, 'SUCCESS', 'SUCCEEDED', null]);
  await db.run(insert, ['r_2', 'redemption', T0, 'SUCCESS', 'SUCCEEDED', null]);
  await db.run(insert, ['rf_1', 'redemption', T0, 'FAILURE', 'FAILED', 'quantity_exceeded']);
  await db.run(insert, ['rr_1', 'redemption_rollback', T1, 'SUCCESS', 'SUCCEEDED', null]);
  await db.run("UPDATE redemptions SET result = 'FAILURE', status = 'FAILED', failure_code = 'x' WHERE id = 'r_2'");
  await db.run("UPDATE redemptions SET status = 'ROLLED_BACK' WHERE id = 'r_1'");
  await db.run("DELETE FROM redemptions WHERE id = 'rr_1'");
  return db.all(
    'SELECT object, result, sum(total) AS total FROM redemption_counts GROUP BY object, result ORDER BY object, result',
  );
}

/** A publication of one voucher, one of several, a failed one: their voucher rows and counts. */
async function publicationWrites(db: Engine): Promise<Row[]> {
  const insert = `INSERT INTO publications (id, created_at, customer_id, channel, result, failure_code, voucher_id, voucher_code, vouchers)
    VALUES (?, ?, 'cust_1', 'API', ?, ?, ?, ?, ?)`;
  await db.run(insert, ['pub_1', T0, 'SUCCESS', null, 'v_1', 'ONE', null]);
  await db.run(insert, [
    'pub_2',
    T1,
    'SUCCESS',
    null,
    'v_2',
    'TWO',
    '[{"id":"v_2","code":"TWO"},{"id":"v_3","code":"THREE"}]',
  ]);
  await db.run(insert, ['pub_3', T1, 'FAILURE', 'no_voucher', null, null, null]);
  const rows = await db.all(
    'SELECT voucher_code, created_at, publication_seq FROM publication_vouchers ORDER BY voucher_code',
  );
  return [
    ...rows,
    ...(await db.all('SELECT result, sum(total) AS total FROM publication_counts GROUP BY result ORDER BY result')),
  ];
}

/** Cards and gift cards created with balances (consistent and not): their opening rows. */
async function openingWrites(db: Engine): Promise<Row[]> {
  const insert = `INSERT INTO vouchers (id, code, type, created_at, loyalty_points, loyalty_balance, loyalty_expired_points,
    loyalty_subtracted_points, loyalty_next_expiration_date, loyalty_next_expiration_points, gift_amount, gift_balance, gift_subtracted_amount)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
  await db.run(insert, ['v_a', 'A', 'LOYALTY_CARD', T0, 100, 60, 10, 5, '2027-01-31', 20, null, null, null]);
  await db.run(insert, ['v_b', 'B', 'LOYALTY_CARD', T0, 50, 60, null, null, null, null, null, null, null]);
  await db.run(insert, ['v_c', 'C', 'GIFT_VOUCHER', T0, null, null, null, null, null, null, 100, 70, 10]);
  await db.run(insert, ['v_d', 'D', 'GIFT_VOUCHER', T0, null, null, null, null, null, null, 50, 70, null]);
  await db.run(insert, ['v_e', 'E', 'DISCOUNT_VOUCHER', T0, null, null, null, null, null, null, null, null, null]);
  const randomId = (id: unknown): unknown =>
    String(id).replace(/^(vtx|lopb)_[0-9a-f]{18}$/, '$1_<18 random hex digits>');
  const entries = (
    await db.all(`SELECT id, voucher_id, type, delta, balance, total, reason, operation_type, created_at
    FROM ledger_entries ORDER BY seq`)
  ).map((r) => ({ ...r, id: randomId(r.id) }));
  const buckets = (
    await db.all('SELECT id, voucher_id, expires_on, total_points, status FROM points_buckets ORDER BY seq')
  ).map((r) => ({ ...r, id: randomId(r.id) }));
  const vouchers = await db.all(`SELECT id, loyalty_points, redeemed_points, loyalty_next_expiration_points,
    loyalty_next_expiration_date, gift_amount FROM vouchers ORDER BY id`);
  return [...entries, ...buckets, ...vouchers];
}

/** JSON CHECKs and the city read from a customer's address accept what SQLite accepts. */
async function jsonWrites(db: Engine): Promise<Row[]> {
  await db.run("INSERT INTO products (id, metadata, created_at) VALUES ('prod_nul', ?, ?)", [
    '{"k":"a\\u0000b","n":[1,{"x":null}]}',
    T0,
  ]);
  await db.run("INSERT INTO customers (id, address, created_at, updated_at) VALUES ('cust_json', ?, ?, ?)", [
    '{"city":"Köln","line_1":"a\\"b"}',
    T0,
    T0,
  ]);
  const products = await db.all("SELECT metadata FROM products WHERE id = 'prod_nul'");
  return [...products, ...(await db.all("SELECT address, address_city FROM customers WHERE id = 'cust_json'"))];
}

const SCENARIOS = {
  catalogWrites,
  customerWrites,
  orderWrites,
  redemptionWrites,
  publicationWrites,
  openingWrites,
  jsonWrites,
};

const found = await postgresForTests();

describe('the baseline triggers write what the SQLite triggers write', { skip: found.skip }, () => {
  let sqlite: BetterSqlite3.Database;
  let client: pg.Client;

  before(async () => {
    assert.ok(found.server);
    sqlite = new BetterSqlite3(`${tempDir()}/promo.db`);
    sqlite.pragma('foreign_keys = ON');
    migrate(sqlite);
    client = new pg.Client(await found.server.migratedDatabase());
    await client.connect();
  });

  after(async () => {
    sqlite?.close();
    await client?.end();
    await found.server?.close();
  });

  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    it(name, async () => {
      const expected = await scenario(sqliteEngine(sqlite));
      assert.ok(expected.length > 0);
      assert.deepEqual(await scenario(postgresEngine(client)), expected);
    });
  }

  it('counts in the slot of the writing backend (pid % 16); a slot may go below zero, the sum stays exact', async () => {
    assert.ok(found.server);
    const url = await found.server.migratedDatabase();
    const writers = await Promise.all(
      [1, 2, 3, 4].map(async () => {
        const c = new pg.Client(url);
        await c.connect();
        return c;
      }),
    );
    const expected = new Map<number, number>();
    for (const [i, c] of writers.entries()) {
      const { rows } = await c.query<{ slot: number }>('SELECT pg_backend_pid() % 16 AS slot');
      await c.query(
        "INSERT INTO customers (id, created_at, updated_at) SELECT 'cust_' || $1 || '_' || n, $2, $2 FROM generate_series(1, $1::int) AS n",
        [i + 1, T0],
      );
      expected.set(rows[0]!.slot, (expected.get(rows[0]!.slot) ?? 0) + i + 1);
    }
    // Another backend deletes all ten: its own slot takes the whole decrement.
    const {
      rows: [deleter],
    } = await writers[0]!.query<{ slot: number }>('SELECT pg_backend_pid() % 16 AS slot');
    await Promise.all(writers.slice(1).map((c) => c.end()));
    await writers[0]!.query('DELETE FROM customers');
    expected.set(deleter!.slot, (expected.get(deleter!.slot) ?? 0) - 10);
    const { rows } = await writers[0]!.query<{ slot: number; total: number }>(
      'SELECT slot::int, total::int FROM customer_counts WHERE total <> 0 ORDER BY slot',
    );
    const {
      rows: [sum],
    } = await writers[0]!.query('SELECT sum(total)::int AS total FROM customer_counts');
    await writers[0]!.end();
    const nonZero = [...expected].filter(([, total]) => total !== 0).sort(([a], [b]) => a - b);
    assert.deepEqual(
      rows,
      nonZero.map(([slot, total]) => ({ slot, total })),
    );
    assert.deepEqual(sum, { total: 0 });
  });

  it('refuses an address holding a \\u0000 escape, which SQLite takes: PostgreSQL text cannot hold NUL', async () => {
    const address = '{"city":"Bonn","line_1":"\\u0000"}';
    const insert = "INSERT INTO customers (id, address, created_at, updated_at) VALUES ('cust_nul', ?, ?, ?)";
    await sqliteEngine(sqlite).run(insert, [address, T0, T0]);
    assert.deepEqual(await sqliteEngine(sqlite).all("SELECT address_city FROM customers WHERE id = 'cust_nul'"), [
      { address_city: 'Bonn' },
    ]);
    await assert.rejects(postgresEngine(client).run(insert, [address, T0, T0]), { code: '22P05' });
  });

  it('the opening rows are those the figures imply (the SQLite side, spelled out)', async () => {
    const rows = await sqliteEngine(sqlite).all(
      "SELECT type, delta, balance, total FROM ledger_entries WHERE voucher_id = 'v_a' ORDER BY seq",
    );
    assert.deepEqual(rows, [
      { type: 'POINTS_ADDITION', delta: 100, balance: 100, total: 100 },
      { type: 'POINTS_EXPIRATION', delta: -10, balance: 90, total: 100 },
      { type: 'POINTS_REMOVAL', delta: -5, balance: 85, total: 100 },
      { type: 'POINTS_REDEMPTION', delta: -25, balance: 60, total: 100 },
    ]);
  });
});
