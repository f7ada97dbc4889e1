import { lineLeft, orderLeft, type OrderState, type Plan } from './state.js';
import { capParts } from './money.js';
import type { ItemTarget } from './types.js';

/**
 * An item an item-level effect may touch, with the units it may touch and its room: what is
 * left of those units after earlier discounts. Every item part is capped at its room, so no
 * item goes below zero.
 */
export interface Touch {
  index: number;
  units: number;
  room: number;
}

/**
 * The value of `units` of a line: all of them is the line's amount; fewer is price x units,
 * or (without a price) the amount's share, rounded down so a discount never passes it.
 */
function valueOfUnits(amount: number, quantity: number, price: number | null, units: number): number {
  if (units >= quantity) return amount;
  if (price !== null) return Math.min(amount, price * units);
  return Number((BigInt(amount) * BigInt(units)) / BigInt(quantity));
}

/**
 * The items a redeemable touches now: the caller's targets (all items when none), less items
 * without a known amount, items with nothing left, indexes not (yet) in the order, and, in ONCE
 * mode, items that already carry an item discount. A target named twice counts once.
 */
export function touchesOf(state: OrderState, targets: ItemTarget[] | null | undefined, once: boolean): Touch[] {
  const wanted = targets ?? state.lines.map((_, index) => ({ index, quantity_limit: null }));
  const seen = new Set<number>();
  const touches: Touch[] = [];
  for (const target of wanted) {
    const line = state.lines[target.index];
    if (line === undefined || line.amount === null || seen.has(target.index)) continue;
    seen.add(target.index);
    if (once && line.discount_amount > 0) continue;
    const units = Math.min(line.quantity, target.quantity_limit ?? line.quantity);
    const room = Math.min(lineLeft(line), valueOfUnits(line.amount, line.quantity, line.price, units));
    if (units > 0 && room > 0) touches.push({ index: target.index, units, room });
  }
  return touches;
}

/**
 * Item parts turned into a plan: capped by the discount's aggregated_amount_limit and by what is
 * left of the whole order (a sent order amount may be below the items' sum), each cap shared
 * out over the parts by largest remainder so the kept parts add up exactly.
 */
export function itemsPlan(state: OrderState, touches: Touch[], parts: number[], aggregated: number | null): Plan {
  const bounded = parts.map((part, k) => Math.max(0, Math.min(part, (touches[k] as Touch).room)));
  const cap = Math.min(aggregated ?? Number.MAX_SAFE_INTEGER, orderLeft(state));
  const kept = capParts(bounded, cap);
  return {
    order: 0,
    items: touches.flatMap((touch, k) =>
      (kept[k] as number) > 0 ? [{ index: touch.index, amount: kept[k] as number, units: touch.units }] : [],
    ),
  };
}

/** An order-level amount, capped by the aggregated limit and by what is left to pay. */
export function orderPlan(state: OrderState, amount: number, aggregated: number | null): Plan {
  return { order: Math.max(0, Math.min(amount, aggregated ?? Number.MAX_SAFE_INTEGER, orderLeft(state))), items: [] };
}
