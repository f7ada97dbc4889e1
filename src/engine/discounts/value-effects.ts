import { percentOf, splitCapped, toMinor } from './money.js';
import { orderLeft, type OrderState, type Plan } from './state.js';
import { itemsPlan, orderPlan, touchesOf, type Touch } from './targets.js';
import type { AmountDiscount, FixedDiscount, ItemTarget, PercentDiscount } from './types.js';

/**
 * AMOUNT, PERCENT and FIXED discounts (voucherify-facts 2.7, the reference's discount-effects
 * guide), each computed on what the earlier redeemables of the stack left:
 *
 * - AMOUNT APPLY_TO_ORDER: amount_off off the order. APPLY_TO_ITEMS: amount_off off each
 *   touched item (a line, whatever its quantity). APPLY_TO_ITEMS_BY_QUANTITY: amount_off off
 *   each touched unit. APPLY_TO_ITEMS_PROPORTIONALLY: amount_off shared by what is left of each
 *   item; ..._BY_QUANTITY: shared by touched units. Shares use largest remainder (ties to the
 *   earlier item), and an item's share never passes what is left of it: the excess goes to the
 *   others, and what no item can take is not given.
 * - PERCENT: percent_off of what is left of the order (APPLY_TO_ORDER) or of each touched item
 *   (APPLY_TO_ITEMS), each rounded half-up, then capped by amount_limit (the order's discount,
 *   or each item's).
 * - FIXED: the order's total brought down to fixed_amount (APPLY_TO_ORDER), or each touched
 *   unit's price brought down to fixed_amount (APPLY_TO_ITEMS); never raised.
 *
 * Then, for every type, aggregated_amount_limit caps the discount's total (item parts shrink in
 * proportion to themselves), and nothing goes beyond what is left of the order. With no effect
 * set, the discount applies to the items when the caller named items, else to the order (the
 * reference's default effects).
 */
type ValueDiscount = AmountDiscount | PercentDiscount | FixedDiscount;

const limitOf = (value: number | null | undefined): number | null => (value == null ? null : toMinor(value));

export function planValueDiscount(
  state: OrderState,
  discount: ValueDiscount,
  targets: ItemTarget[] | null | undefined,
  once: boolean,
): Plan {
  const effect = discount.effect ?? (targets == null ? 'APPLY_TO_ORDER' : 'APPLY_TO_ITEMS');
  const aggregated = limitOf(discount.aggregated_amount_limit);
  if (effect === 'APPLY_TO_ORDER') return orderPlan(state, orderAmount(discount, orderLeft(state)), aggregated);
  const touches = touchesOf(state, targets, once);
  return itemsPlan(state, touches, itemParts(discount, effect, touches), aggregated);
}

function orderAmount(discount: ValueDiscount, left: number): number {
  switch (discount.type) {
    case 'AMOUNT':
      return toMinor(discount.amount_off);
    case 'PERCENT':
      return Math.min(percentOf(left, discount.percent_off), limitOf(discount.amount_limit) ?? left);
    case 'FIXED':
      return Math.max(0, left - toMinor(discount.fixed_amount));
  }
}

function itemParts(discount: ValueDiscount, effect: string, touches: Touch[]): number[] {
  switch (discount.type) {
    case 'AMOUNT':
      return amountParts(toMinor(discount.amount_off), effect, touches);
    case 'PERCENT': {
      const limit = limitOf(discount.amount_limit);
      return touches.map((t) => Math.min(percentOf(t.room, discount.percent_off), limit ?? t.room));
    }
    case 'FIXED': {
      const fixed = toMinor(discount.fixed_amount);
      return touches.map((t) => Math.max(0, t.room - fixed * t.units));
    }
  }
}

function amountParts(amountOff: number, effect: string, touches: Touch[]): number[] {
  const rooms = touches.map((t) => t.room);
  switch (effect) {
    case 'APPLY_TO_ITEMS_PROPORTIONALLY':
      return splitCapped(amountOff, rooms, rooms);
    case 'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY':
      return splitCapped(
        amountOff,
        touches.map((t) => t.units),
        rooms,
      );
    case 'APPLY_TO_ITEMS_BY_QUANTITY':
      return touches.map((t) => Math.min(t.room, amountOff * t.units));
    default:
      return touches.map((t) => Math.min(t.room, amountOff));
  }
}
