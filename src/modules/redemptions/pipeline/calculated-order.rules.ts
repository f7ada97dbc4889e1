import type { CalculatedItem, CalculatedOrder, DiscountOrder } from '../../../engine/discounts/index.js';
import type { OrderItemObject, OrderObject } from '../../orders/index.js';

/**
 * The stored order (as the orders module answers it) as the engine's input, and the engine's
 * figures back as the reference's OrderCalculated (voucherify-facts 2.11): the order's
 * identity, metadata and customer from the stored order, every amount from the engine. Items
 * a UNIT discount added come after the stored ones, with the figures only.
 */
export function discountOrderOf(order: OrderObject): DiscountOrder {
  return {
    amount: order.amount,
    discount_amount: order.discount_amount ?? 0,
    items: order.items.map((item) => ({
      product_id: item.product_id ?? null,
      sku_id: item.sku_id ?? null,
      quantity: item.quantity ?? null,
      price: item.price ?? null,
      amount: item.amount ?? null,
      discount_amount: item.discount_amount ?? 0,
      discount_quantity: item.discount_quantity ?? null,
    })),
  };
}

export type CalculatedOrderObject = Record<string, unknown> & { id: string; items: Record<string, unknown>[] };

function calculatedItem(stored: OrderItemObject | undefined, item: CalculatedItem): Record<string, unknown> {
  return {
    object: 'order_item',
    ...(stored ? { id: stored.id } : {}),
    ...(stored?.source_id !== undefined ? { source_id: stored.source_id } : {}),
    ...(stored?.related_object !== undefined ? { related_object: stored.related_object } : {}),
    ...(item.product_id !== null ? { product_id: item.product_id } : {}),
    ...(item.sku_id !== null ? { sku_id: item.sku_id } : {}),
    quantity: item.quantity,
    discount_quantity: item.discount_quantity,
    initial_quantity: item.initial_quantity,
    ...(item.amount !== null ? { amount: item.amount } : {}),
    discount_amount: item.discount_amount,
    applied_discount_amount: item.applied_discount_amount,
    applied_discount_quantity: item.applied_discount_quantity,
    applied_quantity: item.applied_quantity,
    applied_quantity_amount: item.applied_quantity_amount,
    ...(item.initial_amount !== null ? { initial_amount: item.initial_amount } : {}),
    ...(item.price !== null ? { price: item.price } : {}),
    ...(item.subtotal_amount !== null ? { subtotal_amount: item.subtotal_amount } : {}),
    ...(stored?.product ? { product: stored.product } : {}),
    ...(stored?.sku ? { sku: stored.sku } : {}),
    ...(stored?.metadata ? { metadata: stored.metadata } : {}),
    ...(item.application_details.length > 0 ? { application_details: item.application_details } : {}),
  };
}

/** OrderCalculated: the stored order's identity with these figures and this redemptions map. */
export function calculatedOrder(
  order: OrderObject,
  figures: CalculatedOrder,
  redemptions: Record<string, unknown>,
): CalculatedOrderObject {
  return {
    id: order.id,
    source_id: order.source_id,
    status: order.status,
    amount: figures.amount,
    initial_amount: figures.initial_amount,
    discount_amount: figures.discount_amount,
    items_discount_amount: figures.items_discount_amount,
    total_discount_amount: figures.total_discount_amount,
    total_amount: figures.total_amount,
    applied_discount_amount: figures.applied_discount_amount,
    items_applied_discount_amount: figures.items_applied_discount_amount,
    total_applied_discount_amount: figures.total_applied_discount_amount,
    items: figures.items.map((item, i) => calculatedItem(order.items[i], item)),
    metadata: order.metadata,
    object: 'order',
    created_at: order.created_at,
    updated_at: order.updated_at,
    customer_id: order.customer_id,
    referrer_id: order.referrer_id,
    ...(order.customer ? { customer: order.customer } : {}),
    ...(order.referrer ? { referrer: order.referrer } : {}),
    redemptions,
  };
}

/** The order without a redemption's effect (a validation's answer before any stack, or a stack of none). */
export function unchangedFigures(order: OrderObject): CalculatedOrder {
  const items: CalculatedItem[] = order.items.map((item) => ({
    product_id: item.product_id ?? null,
    sku_id: item.sku_id ?? null,
    quantity: item.quantity ?? 1,
    initial_quantity: item.quantity ?? 1,
    discount_quantity: item.discount_quantity ?? 0,
    applied_discount_quantity: 0,
    applied_quantity: 0,
    applied_quantity_amount: 0,
    price: item.price ?? null,
    amount: item.amount ?? null,
    initial_amount: item.amount ?? null,
    discount_amount: item.discount_amount ?? 0,
    applied_discount_amount: 0,
    subtotal_amount: item.subtotal_amount ?? null,
    application_details: [],
  }));
  const discount = order.discount_amount ?? 0;
  const itemsDiscount = order.items_discount_amount ?? 0;
  return {
    amount: order.amount,
    initial_amount: order.amount,
    discount_amount: discount,
    items_discount_amount: itemsDiscount,
    total_discount_amount: discount + itemsDiscount,
    total_amount: order.total_amount,
    applied_discount_amount: 0,
    items_applied_discount_amount: 0,
    total_applied_discount_amount: 0,
    items,
  };
}
