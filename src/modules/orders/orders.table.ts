import type { Generated } from 'kysely';
import type { OrderStatus } from '../../lib/enums.js';

export interface OrderTable {
  /** The rowid: the tie-breaker of every ordering (insertion order). */
  seq: Generated<number>;
  /** ord_... */
  id: string;
  source_id: string | null;
  status: OrderStatus;
  /** Minor units. */
  amount: number;
  /** As sent; null when it was not. */
  initial_amount: number | null;
  discount_amount: number;
  items_discount_amount: number;
  /** amount - discount_amount - items_discount_amount; generated, read-only. */
  total_amount: Generated<number>;
  /** JSON object. */
  metadata: string;
  customer_id: string | null;
  referrer_id: string | null;
  /** JSON object keyed by redemption id. */
  redemptions: Generated<string>;
  /** When the order first became PAID (the paid-order seam's guard). */
  paid_at: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface OrderItemTable {
  order_id: string;
  position: number;
  /** ordli_... */
  id: string;
  source_id: string | null;
  related_object: 'product' | 'sku' | null;
  product_id: string | null;
  sku_id: string | null;
  quantity: number | null;
  discount_quantity: number | null;
  initial_quantity: number | null;
  amount: number | null;
  discount_amount: number;
  initial_amount: number | null;
  price: number | null;
  /** JSON objects as the order shows them, or null. */
  product: string | null;
  sku: string | null;
  metadata: string | null;
}

/** The per-status counters behind the list's `total`, kept by triggers. */
export interface OrderCountTable {
  status: OrderStatus;
  total: number;
}

export interface OrdersTables {
  orders: OrderTable;
  order_items: OrderItemTable;
  order_counts: OrderCountTable;
}
