import { toMinor } from './money.js';
import { addUnits, applyPlan, recordAddition, type Line, type OrderState, type Plan, type Tally } from './state.js';
import { itemsPlan, touchesOf } from './targets.js';
import type { Unit, UnitDiscount } from './types.js';

/**
 * UNIT discounts (voucherify-facts 2.7; the reference's "give item for free" guide): unit_off
 * units of the unit_type product (or of the unit's SKU) free. Free shipping is the same with
 * unit_type prod_5h1pp1ng: the shipping line is an order item like any other.
 *
 * - ADD_MISSING_ITEMS: units already in the order (lines of that product, and of that SKU when
 *   the unit names one, in order) are discounted first, up to unit_off; only the missing units
 *   are added.
 * - ADD_NEW_ITEMS: unit_off units are always added, and discounted.
 * - ADD_MANY_ITEMS: each entry of `units` with its own effect, one after the other.
 *
 * Added units join the first line of exactly that product and SKU (its quantity and amount
 * grow, as the reference's examples show), at that line's price; without such a line they
 * form a new line at the price the caller loaded (unit_prices, by SKU id or unit_type), free
 * (price 0) when it loaded none. The order's amount grows by what was added; initial_quantity
 * and initial_amount keep what was sent (0 for a new line). Each addition is recorded in the
 * line's application_details. A fractional unit_off is rounded half-up.
 */
export function applyUnitDiscount(
  state: OrderState,
  discount: UnitDiscount,
  unitPrices: Record<string, number>,
  tally: Tally,
  label: string,
): void {
  for (const unit of unitsOf(discount)) applyUnit(state, unit, unitPrices, tally, label);
}

function unitsOf(discount: UnitDiscount): Unit[] {
  if (discount.units != null) return discount.units;
  if (discount.effect === 'ADD_MANY_ITEMS' || discount.unit_type == null) return [];
  return [
    {
      unit_off: discount.unit_off,
      unit_type: discount.unit_type,
      effect: discount.effect ?? 'ADD_MISSING_ITEMS',
      sku: discount.sku,
    },
  ];
}

const matches = (line: Line, unit: Unit): boolean =>
  line.product_id === unit.unit_type && (unit.sku == null || line.sku_id === unit.sku.id);

function applyUnit(
  state: OrderState,
  unit: Unit,
  unitPrices: Record<string, number>,
  tally: Tally,
  label: string,
): void {
  const wanted = toMinor(unit.unit_off ?? 0);
  const existing =
    (unit.effect ?? 'ADD_MISSING_ITEMS') === 'ADD_MISSING_ITEMS'
      ? discountPresent(state, unit, wanted)
      : { plan: { order: 0, items: [] }, units: 0 };
  applyPlan(state, existing.plan, tally);
  const missing = wanted - existing.units;
  if (missing > 0) addFree(state, unit, missing, existing.plan, { unitPrices, tally, label });
}

/** Units of the product already in the order, discounted in full (each line within what is left of it). */
function discountPresent(state: OrderState, unit: Unit, wanted: number): { plan: Plan; units: number } {
  let units = 0;
  const targets = state.lines.flatMap((line, index) => {
    if (!matches(line, unit) || line.amount === null || units >= wanted) return [];
    const taken = Math.min(line.quantity, wanted - units);
    units += taken;
    return [{ index, quantity_limit: taken }];
  });
  const touches = touchesOf(state, targets, false);
  return {
    plan: itemsPlan(
      state,
      touches,
      touches.map((t) => t.room),
      null,
    ),
    units,
  };
}

/**
 * Missing units added free. When the line also had units discounted by this unit, its
 * discount_quantity counts both. Units whose value would take the order's amount past 2^53 - 1
 * are a problem, not added.
 */
function addFree(
  state: OrderState,
  unit: Unit,
  units: number,
  present: Plan,
  context: { unitPrices: Record<string, number>; tally: Tally; label: string },
): void {
  const { unitPrices, tally } = context;
  const skuId = unit.sku?.id ?? null;
  const found = state.lines.findIndex(
    (line) =>
      line.product_id === unit.unit_type && line.sku_id === skuId && line.amount !== null && line.price !== null,
  );
  const price =
    found >= 0 ? ((state.lines[found] as Line).price as number) : toMinor(unitPrices[skuId ?? unit.unit_type] ?? 0);
  const lineAmount = found >= 0 ? ((state.lines[found] as Line).amount as number) : 0;
  if (
    !Number.isSafeInteger(state.initial_amount + state.added_amount + price * units) ||
    !Number.isSafeInteger(lineAmount + price * units)
  ) {
    state.problems.push(
      `${context.label}: ${units} units of ${unit.unit_type} at ${price} take the order's amount beyond ${Number.MAX_SAFE_INTEGER}`,
    );
    return;
  }
  const index = found >= 0 ? found : newLine(state, unit.unit_type, skuId, price);
  addUnits(state, index, units, price, tally);
  const discountedBefore = present.items.find((item) => item.index === index)?.units ?? 0;
  applyPlan(state, { order: 0, items: [{ index, amount: price * units, units: discountedBefore + units }] }, tally);
  recordAddition(state, index, units, price * units, tally);
}

function newLine(state: OrderState, productId: string, skuId: string | null, price: number): number {
  state.lines.push({
    product_id: productId,
    sku_id: skuId,
    price,
    quantity: 0,
    initial_quantity: 0,
    amount: 0,
    initial_amount: 0,
    discount_amount: 0,
    applied_discount_amount: 0,
    discount_quantity: 0,
    applied_discount_quantity: 0,
    applied_quantity: 0,
    applied_quantity_amount: 0,
    application_details: [],
  });
  return state.lines.length - 1;
}
