import type {
  ApplicationDetail,
  CalculatedItem,
  CalculatedOrder,
  ItemContribution,
  RedeemableResult,
} from '../../../src/engine/discounts/index.js';

/**
 * Builders for the engine's expected results. Every figure a test is about is written out; the
 * builders only fill what the reference defines as plain sums or defaults (subtotal = amount -
 * discount, items_discount_amount = the items' sum), and `order()` checks the total written in
 * the test against those sums, so a wrong expectation fails loudly instead of following the code.
 */
export interface ItemSpec {
  product_id?: string;
  sku_id?: string | null;
  quantity: number;
  price: number | null;
  amount?: number | null;
  /** This request's item discount, and earlier requests' on top (`previous`). */
  discount?: number;
  previous?: number;
  discount_quantity?: number;
  applied_discount_quantity?: number;
  /** Units added by this request, and their value. */
  added?: number;
  added_amount?: number;
  details?: ApplicationDetail[];
}

export function item(spec: ItemSpec): CalculatedItem {
  const amount = spec.amount !== undefined ? spec.amount : spec.price === null ? null : spec.price * spec.quantity;
  const applied = spec.discount ?? 0;
  const discount = applied + (spec.previous ?? 0);
  const added = spec.added ?? 0;
  const addedAmount = spec.added_amount ?? 0;
  return {
    product_id: spec.product_id ?? null,
    sku_id: spec.sku_id ?? null,
    quantity: spec.quantity,
    initial_quantity: spec.quantity - added,
    discount_quantity: spec.discount_quantity ?? 0,
    applied_discount_quantity: spec.applied_discount_quantity ?? spec.discount_quantity ?? 0,
    applied_quantity: added,
    applied_quantity_amount: addedAmount,
    price: spec.price,
    amount,
    initial_amount: amount === null ? null : amount - addedAmount,
    discount_amount: discount,
    applied_discount_amount: applied,
    subtotal_amount: amount === null ? null : amount - discount,
    application_details: spec.details ?? [],
  };
}

export interface OrderSpec {
  amount: number;
  initial_amount?: number;
  /** This request's order-level discount, and earlier requests' (`previous`). */
  discount?: number;
  previous?: number;
  total_amount: number;
}

export function order(spec: OrderSpec, items: CalculatedItem[]): CalculatedOrder {
  const applied = spec.discount ?? 0;
  const discount = applied + (spec.previous ?? 0);
  const itemsDiscount = items.reduce((sum, i) => sum + i.discount_amount, 0);
  const itemsApplied = items.reduce((sum, i) => sum + i.applied_discount_amount, 0);
  const built = {
    amount: spec.amount,
    discount_amount: discount,
    items_discount_amount: itemsDiscount,
    total_discount_amount: discount + itemsDiscount,
    total_amount: spec.amount - discount - itemsDiscount,
    initial_amount: spec.initial_amount ?? spec.amount,
    applied_discount_amount: applied,
    items_applied_discount_amount: itemsApplied,
    total_applied_discount_amount: applied + itemsApplied,
    items,
  };
  if (built.total_amount !== spec.total_amount)
    throw new Error(
      `expectation inconsistent: total_amount ${spec.total_amount} written, ${built.total_amount} from the items`,
    );
  return built;
}

/** One redeemable's contribution to one item. */
export const part = (
  index: number,
  discount: number,
  quantity: number,
  added = 0,
  addedAmount = 0,
): ItemContribution => ({
  index,
  discount_amount: discount,
  discount_quantity: quantity,
  applied_quantity: added,
  applied_quantity_amount: addedAmount,
});

export function outcome(
  kind: 'discount' | 'gift',
  orderDiscount: number,
  items: ItemContribution[],
  after: CalculatedOrder,
): RedeemableResult {
  const itemsDiscount = items.reduce((sum, i) => sum + i.discount_amount, 0);
  const total = orderDiscount + itemsDiscount;
  return {
    kind,
    discount_amount: total,
    order_discount_amount: orderDiscount,
    items_discount_amount: itemsDiscount,
    items,
    no_effect: total === 0 && items.every((i) => i.applied_quantity === 0),
    credits_used: kind === 'gift' ? total : 0,
    order: after,
  };
}

/** The whole result of a one-redeemable stack: the final order is the one after it. */
export const alone = (
  kind: 'discount' | 'gift',
  orderDiscount: number,
  items: ItemContribution[],
  after: CalculatedOrder,
) => ({
  ok: true as const,
  order: after,
  redeemables: [outcome(kind, orderDiscount, items, after)],
});
