/**
 * Order import: `promo import orders.json --db <file>` (the real binary, spawned) on a file of
 * 100,000 orders; wall time and the child's peak RSS.
 *
 * Each order has a source_id, is PAID with a historical created_at, has 3 items naming
 * catalog products by source_id (1,000 products seeded first; quantities 1-3, prices from the
 * catalog) and a customer by source_id: every even order a new customer (with a name), every
 * odd one a customer an earlier order of the file created. So each order upserts a customer,
 * resolves its items, writes the order and its items and counts it in the customer's summary,
 * in a savepoint of its own.
 *
 * Baseline, in the same run: a raw better-sqlite3 prepared-insert loop of the same rows (the
 * new customers with their final summary figures, the orders, their items with the product
 * blocks the import stores; new orders and customers with time-ordered ids, as the import makes
 * them) into a fresh file from the same migrations with the same products,
 * the same pragmas as a worker's connection, every value computed before the clock starts,
 * one transaction; run before and after the import (the baseline is their mean).
 *
 * Figures: orders/s of both and their ratio (target >= 0.3), and the import's peak RSS (target
 * < 300 MB). BENCH_MILLION=1 (or the argument `million`) also imports a 1,000,000-order file
 * and reports its peak RSS and rate (targets: <= 1.2x the 100,000-order peak, < 300 MB).
 * BENCH_COUNT=10000 runs a smaller first file: a quick check of the bench itself.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { freshDbFile, tempDir } from '../support/db.js';
import { round } from './support/load.js';
import { measuredImport } from './support/measure.js';
import {
  ITEMS,
  products,
  RAW_INSERTS,
  type RawRows,
  rawRows,
  START_MS,
  writeOrdersFile,
} from './support/orders-file.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 100_000);
const MILLION = process.env.BENCH_MILLION === '1' || process.argv.includes('million');
const BIG_COUNT = 1_000_000;
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));
const dir = tempDir('promo-bench-import-');

/** The same 1,000 products in every file (same ids), as the catalog the orders name. */
function seedProducts(file: string): void {
  const sqlite = openSqlite(file, { synchronous: 'NORMAL' });
  const insert = sqlite.prepare('INSERT INTO products (id, source_id, name, price, created_at) VALUES (?, ?, ?, ?, ?)');
  const at = new Date(START_MS - 86_400_000).toISOString();
  sqlite.transaction(() => products.forEach((p) => insert.run(p.id, p.source_id, p.name, p.price, at)))();
  sqlite.close();
}

/** The raw loop: what the hardware gives for these rows without any of our machinery. */
function rawInsertRate(count: number): number {
  const file = freshDbFile();
  seedProducts(file);
  const rows = rawRows(count);
  const sqlite = openSqlite(file, { synchronous: 'NORMAL' });
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('wal_autocheckpoint = 20000');
  const insert = (table: keyof RawRows) =>
    sqlite.prepare(`INSERT INTO ${RAW_INSERTS[table].into} VALUES ${RAW_INSERTS[table].row}`);
  const [customer, order, item] = [insert('customers'), insert('orders'), insert('items')];
  const started = performance.now();
  sqlite.transaction(() => {
    for (const row of rows.customers) customer.run(...row);
    for (const row of rows.orders) order.run(...row);
    for (const row of rows.items) item.run(...row);
  })();
  const seconds = (performance.now() - started) / 1000;
  checkCounts(sqlite, count, 'the raw loop');
  sqlite.close();
  rmSync(file, { force: true });
  return count / seconds;
}

function checkCounts(sqlite: BetterSqlite3.Database, count: number, who: string): void {
  const n = (sql: string) => (sqlite.prepare(sql).get() as { n: number }).n;
  const got = {
    orders: n('SELECT count(*) AS n FROM orders'),
    items: n('SELECT count(*) AS n FROM order_items'),
    customers: n('SELECT count(*) AS n FROM customers'),
  };
  const want = { orders: count, items: count * ITEMS, customers: Math.ceil(count / 2) };
  if (JSON.stringify(got) !== JSON.stringify(want))
    throw new Error(`${who} stored ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  const counted = n('SELECT sum(orders_total_count) AS n FROM customers');
  if (counted !== count) throw new Error(`${who}: the customers' summaries count ${counted} orders, expected ${count}`);
}

/** `promo import` of the file, measured (its peak RSS: GNU time's %M, else VmHWM polled). */
const importRun = (count: number) =>
  measuredImport(
    {
      write: (file) => writeOrdersFile(file, count),
      args: (file, dbFile) => [bin, 'import', file, '--db', dbFile],
      prepare: seedProducts,
      check: (sqlite) => checkCounts(sqlite, count, 'promo import'),
    },
    `${dir}/orders-${count}.json`,
    count,
  );

// The raw loop runs before and after the import (the mean is the baseline), so a change in the
// machine's load during the run shows in both figures rather than only in one.
const rawBefore = rawInsertRate(COUNT);
const imported = await importRun(COUNT);
const rawAfter = rawInsertRate(COUNT);
const raw = (rawBefore + rawAfter) / 2;
const ratio = imported.rate / raw;
const big = MILLION ? await importRun(BIG_COUNT) : undefined;
const rssGrowth = big ? big.peakRssMb / imported.peakRssMb : undefined;
const result = {
  bench: 'orders-import',
  count: COUNT,
  file_mb: round(imported.fileMb, 1),
  import_orders_per_s: Math.round(imported.rate),
  import_s: round(imported.seconds, 1),
  raw_orders_per_s: Math.round(raw),
  raw_runs_orders_per_s: [Math.round(rawBefore), Math.round(rawAfter)],
  ratio: round(ratio, 3),
  peak_rss_mb: round(imported.peakRssMb, 1),
  ...(big
    ? {
        big_count: BIG_COUNT,
        big_file_mb: round(big.fileMb, 1),
        big_import_orders_per_s: Math.round(big.rate),
        big_import_s: round(big.seconds, 1),
        big_peak_rss_mb: round(big.peakRssMb, 1),
        rss_growth: round(rssGrowth as number, 2),
      }
    : {}),
  targets: { ratio: '>= 0.3', peak_rss_mb: '< 300', ...(big ? { rss_growth: '<= 1.2' } : {}) },
  pass: ratio >= 0.3 && imported.peakRssMb < 300 && (!big || (big.peakRssMb < 300 && (rssGrowth as number) <= 1.2)),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
