/**
 * An order's amounts (voucherify-facts 1.17), in integer minor units:
 * - an item's `amount` is the one sent, else price x quantity (quantity 1 when not sent), else
 *   unknown; its `subtotal_amount` is amount - discount_amount;
 * - the order's `amount` is the one sent, else the sum of the items' known amounts;
 * - `items_discount_amount` = the sum of the items' discount_amount;
 * - `total_discount_amount` = discount_amount + items_discount_amount;
 * - `total_amount` = amount - total_discount_amount.
 * Discounts larger than what they discount, and sums beyond 2^53, are problems, reported all
 * at once with the field they concern.
 */
export interface ItemFigures {
  quantity?: number | null;
  price?: number | null;
  amount?: number | null;
  discount_amount?: number | null;
}

export interface ItemAmounts {
  amount: number | null;
  discount_amount: number;
  subtotal_amount: number | null;
}

export interface OrderAmounts {
  amount: number;
  discount_amount: number;
  items_discount_amount: number;
  total_discount_amount: number;
  total_amount: number;
}

export type ComputedAmounts =
  | { ok: true; items: ItemAmounts[]; order: OrderAmounts }
  | { ok: false; problems: string[] };

export interface OrderFigures {
  amount?: number | null;
  discount_amount?: number | null;
  items: ItemFigures[];
}

function itemAmounts(item: ItemFigures, label: string, problems: string[]): ItemAmounts {
  let amount = item.amount ?? (item.price == null ? null : item.price * (item.quantity ?? 1));
  if (amount !== null && !Number.isSafeInteger(amount)) {
    problems.push(`${label}.amount (price x quantity) must be at most ${Number.MAX_SAFE_INTEGER}`);
    amount = null;
  }
  const discount = item.discount_amount ?? 0;
  if (amount !== null && discount > amount)
    problems.push(`${label}.discount_amount must not exceed the item's amount (${amount})`);
  return { amount, discount_amount: discount, subtotal_amount: amount === null ? null : amount - discount };
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

function safe(name: string, value: number, problems: string[]): number {
  if (!Number.isSafeInteger(value)) problems.push(`${name} must be at most ${Number.MAX_SAFE_INTEGER}`);
  return value;
}

export function computeOrderAmounts(order: OrderFigures): ComputedAmounts {
  const problems: string[] = [];
  const items = order.items.map((item, i) => itemAmounts(item, `items[${i}]`, problems));
  const amount = safe('amount', order.amount ?? sum(items.map((item) => item.amount ?? 0)), problems);
  const itemsDiscount = safe('items_discount_amount', sum(items.map((item) => item.discount_amount)), problems);
  const discount = order.discount_amount ?? 0;
  const totalDiscount = safe('total_discount_amount', discount + itemsDiscount, problems);
  if (problems.length === 0 && totalDiscount > amount) {
    problems.push(
      `discount_amount and the items' discount_amount (${totalDiscount} in all) must not exceed amount (${amount})`,
    );
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    items,
    order: {
      amount,
      discount_amount: discount,
      items_discount_amount: itemsDiscount,
      total_discount_amount: totalDiscount,
      total_amount: amount - totalDiscount,
    },
  };
}
