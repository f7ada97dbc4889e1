import type { Db, Tx } from '../../db/engine.js';
import { newId } from '../../lib/ids.js';
import type { ItemContent } from './order-draft.service.js';
import { emitOrderEvents, moveOrderInSummary } from './order-effects.service.js';
import * as repo from './orders.repository.js';
import type { PendingOrder } from './orders.service.js';

/** What a redemption changed on its order (redemptions, inside their transaction). */
export interface OrderRedemptionChange {
  /** The order's amount after it: units a UNIT discount added count in it. */
  amount: number;
  discount_amount: number;
  items_discount_amount: number;
  /** The stored items whose figures it changed, by position (quantity and amount when units were added to them). */
  items: {
    position: number;
    discount_amount: number;
    discount_quantity: number | null;
    quantity?: number;
    amount?: number | null;
  }[];
  /** New lines of the units a UNIT discount added, after the stored ones. */
  added: Array<
    Pick<
      ItemContent,
      'product_id' | 'sku_id' | 'quantity' | 'price' | 'amount' | 'discount_amount' | 'discount_quantity'
    >
  >;
  /** The whole `redemptions` map after it. */
  redemptions: Record<string, unknown>;
  /** The order's total_amount before it: a counted order moves in its customer's summary.orders by the difference. */
  total_amount_before: number;
  at: string;
}

/** The lines of the units a UNIT discount added, placed after the order's first `first` lines. */
const addedLines = (orderId: string, first: number, added: OrderRedemptionChange['added']): repo.OrderItemRow[] =>
  added.map((item, i) => ({
    source_id: null,
    initial_quantity: null,
    initial_amount: null,
    product: null,
    sku: null,
    metadata: null,
    ...item,
    related_object: item.sku_id ? 'sku' : 'product',
    order_id: orderId,
    position: first + i,
    id: newId('ordli_'),
  }));

/**
 * A pending new order (stageOrder) inserted once, as the redemption leaves it: its figures,
 * its items' discounts, the added units' lines and its `redemptions` map; then the events its
 * insert causes, embedding the order as it was sent (as upsertOrder's do).
 */
async function insertPending(trx: Tx, pending: PendingOrder, change: OrderRedemptionChange): Promise<void> {
  const { row, items, order, ctx } = pending;
  await repo.insertOrder(trx, {
    ...row,
    amount: change.amount,
    discount_amount: change.discount_amount,
    items_discount_amount: change.items_discount_amount,
    redemptions: JSON.stringify(change.redemptions),
    updated_at: change.at,
  });
  const figures = new Map(change.items.map(({ position, ...changed }) => [position, changed]));
  await repo.insertOrderItemRows(trx, [
    ...items.map((item) => ({ ...item, ...figures.get(item.position) })),
    ...addedLines(row.id, items.length, change.added),
  ]);
  await emitOrderEvents(trx, ctx, { created: true, statusChanged: true }, order);
}

/**
 * Records a redemption on its order: the cumulative discounts and the `redemptions` map
 * (the reference's Order object), in the redemption's transaction. The order's CHECKs keep the discounts within
 * the amounts. A pending new order (stageOrder) is inserted so, not updated.
 */
export async function recordOrderRedemption(
  trx: Tx,
  orderId: string,
  change: OrderRedemptionChange,
  pending: PendingOrder | null = null,
): Promise<void> {
  if (pending) return insertPending(trx, pending, change);
  const after = await repo.updateOrder(trx, orderId, {
    amount: change.amount,
    discount_amount: change.discount_amount,
    items_discount_amount: change.items_discount_amount,
    redemptions: JSON.stringify(change.redemptions),
    updated_at: change.at,
  });
  // summary.orders counts what the customer paid, after discounts: a PAID or FULFILLED order's new total moves it.
  await moveOrderInSummary(trx, { ...after, total_amount: change.total_amount_before }, after, change.at);
  for (const { position, ...figures } of change.items) await repo.updateItemFigures(trx, orderId, position, figures);
  if (change.added.length === 0) return;
  await repo.insertOrderItemRows(trx, addedLines(orderId, await repo.countItems(trx, orderId), change.added));
}
