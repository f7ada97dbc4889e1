import type BetterSqlite3 from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { tableNames } from '../../support/db.js';
import type { TestServer } from '../../support/server.js';

/**
 * What the redemption tests share: vouchers made through the API, the calculated order the
 * answers carry (OrderCalculated, voucherify-facts 2.11) built from the items and figures a
 * test expects, and a fingerprint of everything a refused request must leave untouched.
 */
export const ITEMS = [
  { quantity: 1, price: 500 },
  { quantity: 2, price: 100 },
  { quantity: 3, price: 100 },
];

/** A voucher as the API answers its creation: the fields the tests read, and the rest. */
export interface VoucherBody {
  id: string;
  code: string;
  [field: string]: unknown;
}

/** A stored order as the API answers it, with the fields a calculated order is built from. */
export interface StoredOrder {
  id: string;
  source_id?: string | null;
  status?: string;
  items: Array<{ id: string }>;
  metadata?: unknown;
  created_at: string;
  updated_at?: string | null;
  customer_id?: string | null;
  [field: string]: unknown;
}

export async function makeVoucher(
  server: TestServer,
  code: string,
  body: Record<string, unknown>,
): Promise<VoucherBody> {
  const res = await server.request('POST', `/v1/vouchers/${code}`, { body });
  if (res.status !== 200) throw new Error(`voucher ${code}: ${res.status} ${res.text}`);
  return res.body;
}

export const percentVoucher = (server: TestServer, code: string, extra: Record<string, unknown> = {}) =>
  makeVoucher(server, code, { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, ...extra });

export const giftCard = (server: TestServer, code: string, amount: number, extra: Record<string, unknown> = {}) =>
  makeVoucher(server, code, { type: 'GIFT_VOUCHER', gift: { amount }, ...extra });

/** An order item of a calculated order with no item-level discount, as the answers show it. */
export function calculatedItem(id: string, item: { quantity: number; price: number }) {
  const amount = item.quantity * item.price;
  return {
    object: 'order_item',
    id,
    quantity: item.quantity,
    discount_quantity: 0,
    initial_quantity: item.quantity,
    amount,
    discount_amount: 0,
    applied_discount_amount: 0,
    applied_discount_quantity: 0,
    applied_quantity: 0,
    applied_quantity_amount: 0,
    initial_amount: amount,
    price: item.price,
    subtotal_amount: amount,
  };
}

export interface OrderFigures {
  amount: number;
  discount: number;
  applied: number;
}

/** A calculated order with order-level discounts only. */
export function calculatedOrder(
  order: StoredOrder,
  figures: OrderFigures,
  redemptions: Record<string, unknown>,
  items = ITEMS,
) {
  return {
    id: order.id,
    source_id: order.source_id ?? null,
    status: order.status ?? 'CREATED',
    amount: figures.amount,
    initial_amount: figures.amount,
    discount_amount: figures.discount,
    items_discount_amount: 0,
    total_discount_amount: figures.discount,
    total_amount: figures.amount - figures.discount,
    applied_discount_amount: figures.applied,
    items_applied_discount_amount: 0,
    total_applied_discount_amount: figures.applied,
    items: items.map((item, i) => calculatedItem(order.items[i]!.id, item)),
    metadata: order.metadata ?? {},
    object: 'order',
    created_at: order.created_at,
    updated_at: order.updated_at,
    customer_id: order.customer_id,
    referrer_id: null,
    ...(order.customer_id ? { customer: { id: order.customer_id, object: 'customer' } } : {}),
    redemptions,
  };
}

/**
 * Every row of every table but those named, and every customer's columns but the redemption
 * summary. Rows are hashed in sorted order: PostgreSQL gives no order without ORDER BY, and an
 * updated row moves there.
 */
export function fingerprintBut(sqlite: BetterSqlite3.Database, tables: string[]): string {
  const hash = createHash('sha256');
  for (const name of tableNames(sqlite).filter((t) => !tables.includes(t))) {
    hash.update(name);
    const rows = (sqlite.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>).map((row) =>
      JSON.stringify(
        name === 'customers'
          ? Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('redemptions_') && k !== 'updated_at'))
          : row,
      ),
    );
    for (const row of rows.sort()) hash.update(row);
  }
  return hash.digest('hex');
}
