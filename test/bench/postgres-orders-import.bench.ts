/**
 * Order import on PostgreSQL (issue 29, Benchmarks): `promo import orders.json --db
 * postgres://...` (the real binary, spawned) of BENCH_COUNT (default 100,000) orders, the file
 * and catalog of the SQLite `orders-import` bench (test/bench/support/orders-file.ts); wall
 * time and the child's peak RSS; then every order, item, customer and summary counted.
 *
 * Baseline, in the same run, on the same cluster: a raw batched insert of the same rows into
 * the same schema (a fresh database from the same migrations with the same products): multi-row
 * INSERTs of BATCH rows through one connection, one transaction, every value computed before
 * the clock starts (the rows of the SQLite bench's raw loop, RAW_INSERTS); run before and after
 * the import (the baseline is their mean). Figures: orders/s of both and their ratio. The
 * cluster: PROMO_TEST_DB, else a scratch one (test/support/postgres.ts).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { tempDir } from '../support/db.js';
import type { TestPostgres } from '../support/postgres.js';
import { PROMO_BIN as bin } from './support/api.js';
import { round } from './support/load.js';
import { runMeasured } from './support/measure.js';
import {
  ITEMS,
  products,
  RAW_INSERTS,
  type RawRows,
  rawRows,
  START_MS,
  writeOrdersFile,
} from './support/orders-file.js';
import { benchCluster } from './support/postgres-cluster.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 100_000);
/** Rows a raw INSERT carries: under PostgreSQL's 65,535 parameters at 10 a row. */
const BATCH = 1000;

async function connected<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** `rows` into `table` as multi-row INSERTs of BATCH rows, each `?` of the row's pattern numbered. */
async function insertBatched(client: pg.Client, table: keyof RawRows, rows: unknown[][]): Promise<void> {
  const { into, row } = RAW_INSERTS[table];
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    let n = 0;
    const tuples = batch.map(() => row.replace(/\?/g, () => `$${++n}`));
    await client.query(`INSERT INTO ${into} VALUES ${tuples.join(', ')}`, batch.flat());
  }
}

/** The same 1,000 products (same ids) the file's orders name. */
const seedProducts = (url: string): Promise<void> =>
  connected(url, async (client) => {
    const at = new Date(START_MS - 86_400_000).toISOString();
    const tuples = products.map(
      (_, i) => `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5})`,
    );
    await client.query(
      `INSERT INTO products (id, source_id, name, price, created_at) VALUES ${tuples.join(', ')}`,
      products.flatMap((p) => [p.id, p.source_id, p.name, p.price, at]),
    );
  });

/** Throws unless the database holds `count` orders, their items, their customers and summaries. */
const checkCounts = (url: string, count: number, who: string): Promise<void> =>
  connected(url, async (client) => {
    const { rows } = await client.query<Record<string, number>>(`SELECT
      (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM order_items) AS items,
      (SELECT count(*) FROM customers) AS customers, (SELECT sum(orders_total_count) FROM customers) AS counted`);
    const want = { orders: count, items: count * ITEMS, customers: Math.ceil(count / 2), counted: count };
    const got = Object.fromEntries(Object.entries(rows[0] ?? {}).map(([k, v]) => [k, Number(v)]));
    if (JSON.stringify(got) !== JSON.stringify(want))
      throw new Error(`${who} stored ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  });

/** The raw loop: what the cluster gives for these rows without any of our machinery. */
async function rawInsertRate(cluster: TestPostgres, count: number): Promise<number> {
  const url = await cluster.migratedDatabase();
  await seedProducts(url);
  const rows = rawRows(count);
  const seconds = await connected(url, async (client) => {
    const started = performance.now();
    await client.query('BEGIN');
    for (const table of ['customers', 'orders', 'items'] as const) await insertBatched(client, table, rows[table]);
    await client.query('COMMIT');
    return (performance.now() - started) / 1000;
  });
  await checkCounts(url, count, 'the raw loop');
  return count / seconds;
}

/** `promo import` of the file into a fresh database with the products, measured and checked. */
async function importRate(cluster: TestPostgres, file: string, count: number) {
  const url = await cluster.migratedDatabase();
  await seedProducts(url);
  const { seconds, peakRssMb } = await runMeasured([bin, 'import', file, '--db', url], 'promo import');
  await checkCounts(url, count, 'promo import');
  return { rate: count / seconds, seconds, peakRssMb };
}

const cluster = await benchCluster();
const dir = tempDir('promo-bench-pg-import-');
try {
  const file = join(dir, `orders-${COUNT}.json`);
  const fileMb = writeOrdersFile(file, COUNT) / 1024 / 1024;
  const rawBefore = await rawInsertRate(cluster, COUNT);
  const imported = await importRate(cluster, file, COUNT);
  const rawAfter = await rawInsertRate(cluster, COUNT);
  const raw = (rawBefore + rawAfter) / 2;
  process.stdout.write(
    `${JSON.stringify({
      bench: 'postgres-orders-import',
      count: COUNT,
      file_mb: round(fileMb, 1),
      import_orders_per_s: Math.round(imported.rate),
      import_s: round(imported.seconds, 1),
      raw_orders_per_s: Math.round(raw),
      raw_runs_orders_per_s: [Math.round(rawBefore), Math.round(rawAfter)],
      ratio: round(imported.rate / raw, 3),
      peak_rss_mb: round(imported.peakRssMb, 1),
    })}\n`,
  );
} finally {
  await cluster.close();
  rmSync(dir, { recursive: true, force: true });
}
