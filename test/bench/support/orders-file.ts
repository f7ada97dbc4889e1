import { closeSync, openSync, writeSync } from 'node:fs';
import { newId, timeOrderedIds } from '../../../src/lib/ids.js';
import { seededRandom } from '../../support/random.js';

/**
 * The order import benches' file and rows (orders-import on SQLite, postgres-orders-import):
 * `count` orders, each PAID with a historical created_at, 3 items naming catalog products by
 * source_id (PRODUCTS seeded first) and a customer by source_id (every even order a new one,
 * every odd one a customer an earlier order created); the same file on every run.
 */
export const PRODUCTS = 1000;
export const ITEMS = 3;

export const priceOf = (product: number): number => 100 * ((product % 50) + 1);
export const START_MS = Date.parse('2024-01-01T00:00:00.000Z');

export interface OrderSpec {
  n: number;
  /** The customer's number (its source_id is c-<number>); new when it equals n. */
  customer: number;
  items: Array<{ product: number; quantity: number }>;
  createdAt: string;
}

/** The orders of the file, one at a time (the same sequence for the file and the raw rows). */
export function* orderSpecs(count: number): Generator<OrderSpec> {
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
export function writeOrdersFile(file: string, count: number): number {
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

export interface Product {
  id: string;
  source_id: string;
  name: string;
  price: number;
}

export const products: Product[] = Array.from({ length: PRODUCTS }, (_, i) => ({
  id: newId('prod_'),
  source_id: `p-${i}`,
  name: `Product ${i}`,
  price: priceOf(i),
}));

/**
 * Where the raw loops put each kind of row and how a row's bound values (`?`) sit among the
 * constants the import writes: the same statements on both engines.
 */
export const RAW_INSERTS: Record<keyof RawRows, { into: string; row: string }> = {
  customers: {
    into: `customers (id, source_id, name, metadata, system_metadata, orders_total_amount, orders_total_count,
      orders_last_order_amount, orders_last_order_date, created_at, updated_at)`,
    row: "(?, ?, ?, '{}', '{}', ?, ?, ?, ?, ?, ?)",
  },
  orders: {
    into: `orders (id, source_id, status, amount, discount_amount, items_discount_amount, metadata, customer_id,
      paid_at, created_at)`,
    row: "(?, ?, 'PAID', ?, 0, 0, '{}', ?, ?, ?)",
  },
  items: {
    into: `order_items (order_id, position, id, source_id, related_object, product_id, quantity, amount,
      discount_amount, price, product)`,
    row: '(?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)',
  },
};

export interface RawRows {
  customers: unknown[][];
  orders: unknown[][];
  items: unknown[][];
}

/** New orders' and customers' ids as the import makes them: time-ordered (src/lib/ids.ts), the time moving on as the rows are computed. */
const idNow = (prefix: string): string => timeOrderedIds(prefix, Date.now())();

/** Every row the import writes for these orders, as bound values. */
export function rawRows(count: number): RawRows {
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
