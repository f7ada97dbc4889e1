import type { Db, Tx } from '../../db/engine.js';
import { newId } from '../../lib/ids.js';
import type { ItemContent } from './order-draft.service.js';
import * as repo from './orders.repository.js';

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
  at: string;
}

/**
 * Records a redemption on its order: the cumulative discounts and the `redemptions` map
 * (the reference's Order object), in the redemption's transaction. The order's CHECKs keep the discounts within
 * the amounts.
 */
export async function recordOrderRedemption(trx: Tx, orderId: string, change: OrderRedemptionChange): Promise<void> {
  await repo.updateOrder(trx, orderId, {
    amount: change.amount,
    discount_amount: change.discount_amount,
    items_discount_amount: change.items_discount_amount,
    redemptions: JSON.stringify(change.redemptions),
    updated_at: change.at,
  });
  for (const { position, ...figures } of change.items) await repo.updateItemFigures(trx, orderId, position, figures);
  if (change.added.length === 0) return;
  const first = await repo.countItems(trx, orderId);
  const blank = {
    source_id: null,
    related_object: null,
    initial_quantity: null,
    initial_amount: null,
    product: null,
    sku: null,
    metadata: null,
  };
  await repo.insertOrderItemRows(
    trx,
    change.added.map((item, i) => ({
      ...blank,
      ...item,
      related_object: item.sku_id ? 'sku' : 'product',
      order_id: orderId,
      position: first + i,
      id: newId('ordli_'),
    })),
  );
}
