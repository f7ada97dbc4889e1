import { sum } from './money.js';
import { planGift } from './gift.js';
import { applyPlan, newTally, presentOrder, startOrder, type OrderState, type Tally } from './state.js';
import { applyUnitDiscount } from './units.js';
import { planValueDiscount } from './value-effects.js';
import type {
  CalculatedOrder,
  DiscountOrder,
  ItemContribution,
  Redeemable,
  RedeemableResult,
  StackOptions,
  StackResult,
} from './types.js';

/**
 * A stack of redeemables applied to an order, in the order given (the caller has sorted it by
 * the stacking rules and dropped what they skip): each one works on what the earlier ones
 * left, so no item and no order goes below zero, and gift credits pay only what is left.
 * Each redeemable's result says what it took off (order-level and per item), whether it had no
 * effect, the credits it used, and the order as it stood after it (its child redemption's
 * order, whose applied_* figures are that redeemable's own). Inputs that cannot be computed
 * come back as problems, all at once.
 */
export function applyStack(order: DiscountOrder, stack: Redeemable[], options: StackOptions = {}): StackResult {
  const problems = stack.flatMap(targetProblems);
  const started = startOrder(order);
  if (!started.ok) return { ok: false, problems: [...started.problems, ...problems] };
  if (problems.length > 0) return { ok: false, problems };
  const state = started.state;
  const once = options.products_application_mode === 'ONCE';
  const redeemables: RedeemableResult[] = [];
  for (const [position, redeemable] of stack.entries()) {
    const tally = newTally();
    applyRedeemable(state, redeemable, { once, label: `stack[${position}]` }, tally);
    if (state.problems.length > 0) return { ok: false, problems: state.problems };
    redeemables.push(resultOf(redeemable, tally, presentOrder(state, tally)));
  }
  return { ok: true, order: presentOrder(state), redeemables };
}

function applyRedeemable(
  state: OrderState,
  redeemable: Redeemable,
  how: { once: boolean; label: string },
  tally: Tally,
): void {
  if (redeemable.kind === 'gift') return applyPlan(state, planGift(state, redeemable), tally);
  const { discount } = redeemable;
  if (discount.type === 'UNIT')
    return applyUnitDiscount(state, discount, redeemable.unit_prices ?? {}, tally, how.label);
  applyPlan(state, planValueDiscount(state, discount, redeemable.items, how.once), tally);
}

function resultOf(redeemable: Redeemable, tally: Tally, order: CalculatedOrder): RedeemableResult {
  const items: ItemContribution[] = [...tally.items.values()].sort((a, b) => a.index - b.index);
  const itemsDiscount = sum(items.map((item) => item.discount_amount));
  const discount = tally.order + itemsDiscount;
  return {
    kind: redeemable.kind,
    discount_amount: discount,
    order_discount_amount: tally.order,
    items_discount_amount: itemsDiscount,
    items,
    no_effect: discount === 0 && items.every((item) => item.applied_quantity === 0),
    credits_used: redeemable.kind === 'gift' ? discount : 0,
    order,
  };
}

/** Item targets must name items by a whole index >= 0, with a whole quantity limit >= 0. */
function targetProblems(redeemable: Redeemable, position: number): string[] {
  return (redeemable.items ?? []).flatMap((target, k) => {
    const at = `stack[${position}].items[${k}]`;
    const bad: string[] = [];
    if (!Number.isSafeInteger(target.index) || target.index < 0) bad.push(`${at}.index must be a whole number >= 0`);
    const limit = target.quantity_limit;
    if (limit != null && (!Number.isSafeInteger(limit) || limit < 0))
      bad.push(`${at}.quantity_limit must be a whole number >= 0`);
    return bad;
  });
}
