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
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { newId, timeOrderedIds } from '../../src/lib/ids.js';
import { freshDbFile, tempDir } from '../support/db.js';
import { round } from './support/load.js';
import { measuredImport } from './support/measure.js';
import { seededRandom } from '../support/random.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 100_000);
const MILLION = process.env.BENCH_MILLION === '1' || process.argv.includes('million');
const BIG_COUNT = 1_000_000;
const PRODUCTS = 1000;
const ITEMS = 3;
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));
const dir = tempDir('promo-bench-import-');

const priceOf = (product: number): number => 100 * ((product % 50) + 1);
const START_MS = Date.parse('2024-01-01T00:00:00.000Z');

interface OrderSpec {
  n: number;
  /** The customer's number (its source_id is c-<number>); new when it equals n. */
  customer: number;
  items: Array<{ product: number; quantity: number }>;
  createdAt: string;
}

/** The orders of the file, one at a time (the same sequence for the file and the raw rows). */
function* orderSpecs(count: number): Generator<OrderSpec> {
  const next = seededRandom(42); // every run imports the same file
  const pick = (n: number) => Math.floor(next() * n);
  for (let n = 0; n < count; n++) {
    const customer = n % 2 === 0 ? n : 2 * pick(Math.ceil(n / 2));
    const items = Array.from({ length: ITEMS }, () => ({ product: pick(PRODUCTS), quantity: 1 + pick(3) }));
    yield { n, customer, items, createdAt: new Date(START_MS + n * 60_000).toISOString() };
  }
}

const orderBody = (o: OrderSpec) => ({
  source_id: `ord-${o.n}`,
  status: 'PAID',
  created_at: o.createdAt,
  customer:
    o.customer === o.n
      ? { source_id: `c-${o.customer}`, name: `Customer ${o.customer}` }
      : { source_id: `c-${o.customer}` },
  items: o.items.map((i) => ({ source_id: `p-${i.product}`, related_object: 'product', quantity: i.quantity })),
});

/** Writes the file as one JSON array, an order per line; returns its size in bytes. */
function writeOrdersFile(file: string, count: number): number {
  const fd = openSync(file, 'w');
  let bytes = 0;
  let chunk: string[] = ['['];
  const flush = () => {
    const text = chunk.join('');
    bytes += Buffer.byteLength(text);
    writeSync(fd, text);
    chunk = [];
  };
  for (const o of orderSpecs(count)) {
    chunk.push(`${o.n === 0 ? '' : ','}\n${JSON.stringify(orderBody(o))}`);
    if (chunk.length >= 10_000) flush();
  }
  chunk.push('\n]\n');
  flush();
  closeSync(fd);
  return bytes;
}

interface Product {
  id: string;
  source_id: string;
  name: string;
  price: number;
}

const products: Product[] = Array.from({ length: PRODUCTS }, (_, i) => ({
  id: newId('prod_'),
  source_id: `p-${i}`,
  name: `Product ${i}`,
  price: priceOf(i),
}));

/** The same 1,000 products in every file (same ids), as the catalog the orders name. */
function seedProducts(file: string): void {
  const sqlite = openSqlite(file, { synchronous: 'NORMAL' });
  const insert = sqlite.prepare('INSERT INTO products (id, source_id, name, price, created_at) VALUES (?, ?, ?, ?, ?)');
  const at = new Date(START_MS - 86_400_000).toISOString();
  sqlite.transaction(() => products.forEach((p) => insert.run(p.id, p.source_id, p.name, p.price, at)))();
  sqlite.close();
}

interface RawRows {
  customers: unknown[][];
  orders: unknown[][];
  items: unknown[][];
}

/** New orders' and customers' ids as the import makes them: time-ordered (src/lib/ids.ts), the time moving on as the rows are computed. */
const idNow = (prefix: string): string => timeOrderedIds(prefix, Date.now())();

/** Every row the import writes for these orders, as bound values. */
function rawRows(count: number): RawRows {
  const now = new Date().toISOString();
  const customerIds = new Map<number, string>();
  const figures = new Map<number, { total: number; count: number; lastAmount: number; lastDate: string }>();
  const productBlocks = products.map((p) =>
    JSON.stringify({ id: p.id, source_id: p.source_id, name: p.name, metadata: {}, price: p.price }),
  );
  const rows: RawRows = { customers: [], orders: [], items: [] };
  for (const o of orderSpecs(count)) {
    if (o.customer === o.n) customerIds.set(o.n, idNow('cust_'));
    const orderId = idNow('ord_');
    let amount = 0;
    o.items.forEach((item, position) => {
      const price = (products[item.product] as Product).price;
      amount += price * item.quantity;
      rows.items.push([
        orderId,
        position,
        newId('ordli_'),
        `p-${item.product}`,
        'product',
        (products[item.product] as Product).id,
        item.quantity,
        price * item.quantity,
        price,
        productBlocks[item.product],
      ]);
    });
    rows.orders.push([orderId, `ord-${o.n}`, amount, customerIds.get(o.customer), now, o.createdAt]);
    const f = figures.get(o.customer) ?? { total: 0, count: 0, lastAmount: 0, lastDate: '' };
    figures.set(o.customer, { total: f.total + amount, count: f.count + 1, lastAmount: amount, lastDate: o.createdAt });
  }
  for (const [n, id] of customerIds) {
    const f = figures.get(n) as { total: number; count: number; lastAmount: number; lastDate: string };
    rows.customers.push([id, `c-${n}`, `Customer ${n}`, f.total, f.count, f.lastAmount, f.lastDate, now, now]);
  }
  return rows;
}

/** The raw loop: what the hardware gives for these rows without any of our machinery. */
function rawInsertRate(count: number): number {
  const file = freshDbFile();
  seedProducts(file);
  const rows = rawRows(count);
  const sqlite = openSqlite(file, { synchronous: 'NORMAL' });
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('wal_autocheckpoint = 20000');
  const customer =
    sqlite.prepare(`INSERT INTO customers (id, source_id, name, metadata, system_metadata, orders_total_amount, orders_total_count,
    orders_last_order_amount, orders_last_order_date, created_at, updated_at) VALUES (?, ?, ?, '{}', '{}', ?, ?, ?, ?, ?, ?)`);
  const order =
    sqlite.prepare(`INSERT INTO orders (id, source_id, status, amount, discount_amount, items_discount_amount, metadata, customer_id,
    paid_at, created_at) VALUES (?, ?, 'PAID', ?, 0, 0, '{}', ?, ?, ?)`);
  const item =
    sqlite.prepare(`INSERT INTO order_items (order_id, position, id, source_id, related_object, product_id, quantity, amount,
    discount_amount, price, product) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`);
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
