import { splitCapped, toMinor } from './money.js';
import type { OrderState, Plan } from './state.js';
import { itemsPlan, orderPlan, touchesOf } from './targets.js';
import type { GiftRedeemable } from './types.js';

/**
 * Gift credits pay what the stack left so far: min(credits offered, card balance, what is left
 * to pay), never more; with no credits offered, as much as the balance covers. Like the
 * reference's gift `effect`, credits go to the order (APPLY_TO_ORDER, the default) or to the
 * caller's items (APPLY_TO_ITEMS, shared by what is left of each item, largest remainder), and
 * count in the order's discount figures, so `total_amount` is what is left to pay.
 */
export function planGift(state: OrderState, gift: GiftRedeemable): Plan {
  const balance = toMinor(gift.balance);
  // What is left to pay caps it in the plan, as for any discount.
  const credits = Math.min(gift.credits == null ? balance : toMinor(gift.credits), balance);
  if ((gift.effect ?? 'APPLY_TO_ORDER') === 'APPLY_TO_ORDER') return orderPlan(state, credits, null);
  const touches = touchesOf(state, gift.items, false);
  const rooms = touches.map((t) => t.room);
  return itemsPlan(state, touches, splitCapped(credits, rooms, rooms), null);
}
