import type { OrderStatus } from '../../lib/enums.js';
import type { OrderItemRow, OrderRow } from './orders.repository.js';

/**
 * The reference's Order object, shaped as the reference's answers are: what is zero or
 * unknown is left out (discounts, initial amounts not sent, an empty `redemptions`, a missing
 * referrer), `source_id`, `customer_id` and `referrer_id` are null when unset, and the
 * `applied_*` figures (what one redemption applied) never appear on a stored order.
 */
export interface ItemProductBlock {
  id?: string;
  source_id?: string;
  name?: string;
  metadata?: Record<string, unknown>;
  price?: number;
}

export interface ItemSkuBlock {
  id?: string;
  source_id?: string;
  sku?: string;
  metadata?: Record<string, unknown>;
  price?: number;
}

export interface OrderItemObject {
  object: 'order_item';
  id: string;
  source_id?: string;
  related_object?: 'product' | 'sku';
  product_id?: string;
  sku_id?: string;
  quantity?: number;
  discount_quantity?: number;
  initial_quantity?: number;
  amount?: number;
  discount_amount?: number;
  initial_amount?: number;
  price?: number;
  subtotal_amount?: number;
  product?: ItemProductBlock;
  sku?: ItemSkuBlock;
  metadata?: Record<string, unknown>;
}

export interface CustomerRef {
  id: string;
  object: 'customer';
}

export interface OrderObject {
  id: string;
  source_id: string | null;
  created_at: string;
  updated_at: string | null;
  status: OrderStatus;
  amount: number;
  initial_amount?: number;
  discount_amount?: number;
  items_discount_amount?: number;
  total_discount_amount?: number;
  total_amount: number;
  items: OrderItemObject[];
  metadata: Record<string, unknown>;
  customer?: CustomerRef;
  referrer?: CustomerRef;
  customer_id: string | null;
  referrer_id: string | null;
  object: 'order';
  redemptions?: Record<string, unknown>;
}

/** The fields whose value is not null (nor undefined): answers leave the others out. */
// A loop, not fromEntries(entries().filter()): an order's items run it a few times each (~1 us saved a call).
export const withoutNulls = <T extends Record<string, unknown>>(fields: T) => {
  const kept: Record<string, unknown> = {};
  for (const key in fields) if (fields[key] !== null && fields[key] !== undefined) kept[key] = fields[key];
  return kept as { [K in keyof T]?: NonNullable<T[K]> };
};

/** Zero discounts are left out, as the reference's answers do. */
const nonZero = (value: number): number | null => (value === 0 ? null : value);

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

export const presentItem = (row: OrderItemRow): OrderItemObject => ({
  object: 'order_item',
  id: row.id,
  ...withoutNulls({
    source_id: row.source_id,
    related_object: row.related_object,
    product_id: row.product_id,
    sku_id: row.sku_id,
    quantity: row.quantity,
    discount_quantity: row.discount_quantity,
    initial_quantity: row.initial_quantity,
    amount: row.amount,
    discount_amount: nonZero(row.discount_amount),
    initial_amount: row.initial_amount,
    price: row.price,
    subtotal_amount: row.amount === null ? null : row.amount - row.discount_amount,
    product: json<ItemProductBlock>(row.product),
    sku: json<ItemSkuBlock>(row.sku),
    metadata: json<Record<string, unknown>>(row.metadata),
  }),
});

const customerRef = (id: string | null): CustomerRef | null => (id === null ? null : { id, object: 'customer' });

export function presentOrder(row: OrderRow, items: OrderItemRow[]): OrderObject {
  const redemptions = JSON.parse(row.redemptions) as Record<string, unknown>;
  const totalDiscount = row.discount_amount + row.items_discount_amount;
  return {
    id: row.id,
    source_id: row.source_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    status: row.status,
    amount: row.amount,
    ...withoutNulls({
      initial_amount: row.initial_amount,
      discount_amount: nonZero(row.discount_amount),
      items_discount_amount: nonZero(row.items_discount_amount),
      total_discount_amount: nonZero(totalDiscount),
    }),
    total_amount: row.total_amount,
    items: items.map(presentItem),
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    ...withoutNulls({ customer: customerRef(row.customer_id), referrer: customerRef(row.referrer_id) }),
    customer_id: row.customer_id,
    referrer_id: row.referrer_id,
    object: 'order',
    ...(Object.keys(redemptions).length > 0 ? { redemptions } : {}),
  };
}

/** Presents orders with their items, given every item of these orders (in position order). */
export function presentOrders(rows: OrderRow[], items: OrderItemRow[]): OrderObject[] {
  const byOrder = new Map<string, OrderItemRow[]>();
  for (const item of items) {
    const list = byOrder.get(item.order_id);
    if (list) list.push(item);
    else byOrder.set(item.order_id, [item]);
  }
  return rows.map((row) => presentOrder(row, byOrder.get(row.id) ?? []));
}
