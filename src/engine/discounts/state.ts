import { computeOrderAmounts } from '../orders/amounts.js';
import { sum } from './money.js';
import type { ApplicationDetail, CalculatedItem, CalculatedOrder, DiscountOrder, ItemContribution } from './types.js';

/**
 * The order while a stack is applied: each line's figures, what earlier requests gave
 * (`discount_amount` as sent) and what this request gave so far (`applied_*`). The order's
 * sums always come from engine/orders/amounts.ts, the one place order amounts are computed.
 */
export interface Line {
  product_id: string | null;
  sku_id: string | null;
  price: number | null;
  quantity: number;
  initial_quantity: number;
  amount: number | null;
  initial_amount: number | null;
  discount_amount: number;
  applied_discount_amount: number;
  discount_quantity: number;
  applied_discount_quantity: number;
  applied_quantity: number;
  applied_quantity_amount: number;
  application_details: ApplicationDetail[];
}

export interface OrderState {
  /** The order's amount as sent (or the items' sum); added units come on top. */
  initial_amount: number;
  added_amount: number;
  discount_amount: number;
  applied_discount_amount: number;
  lines: Line[];
  /** What could not be computed on the way (units whose value passes 2^53 - 1). */
  problems: string[];
}

export type Started = { ok: true; state: OrderState } | { ok: false; problems: string[] };

const whole = (value: number | null | undefined): boolean =>
  value == null || (Number.isSafeInteger(value) && value >= 0);

/** Figures the engine cannot work with: fractions of a unit or a cent, negative amounts. */
function figureProblems(order: DiscountOrder): string[] {
  const problems = (['amount', 'discount_amount'] as const).flatMap((key) =>
    whole(order[key]) ? [] : [`${key} must be a whole number >= 0`],
  );
  order.items.forEach((item, i) => {
    for (const key of ['quantity', 'price', 'amount', 'discount_amount', 'discount_quantity'] as const) {
      if (!whole(item[key])) problems.push(`items[${i}].${key} must be a whole number >= 0`);
    }
  });
  return problems;
}

/** The order as sent, checked by computeOrderAmounts (discounts within amounts, sums below 2^53). */
export function startOrder(order: DiscountOrder): Started {
  const problems = figureProblems(order);
  if (problems.length > 0) return { ok: false, problems };
  const computed = computeOrderAmounts(order);
  if (!computed.ok) return { ok: false, problems: computed.problems };
  const lines = order.items.map((item, i): Line => {
    const figures = computed.items[i] as CalculatedFigures;
    const quantity = item.quantity ?? 1;
    return {
      product_id: item.product_id ?? null,
      sku_id: item.sku_id ?? null,
      price: item.price ?? null,
      quantity,
      initial_quantity: quantity,
      amount: figures.amount,
      initial_amount: figures.amount,
      discount_amount: figures.discount_amount,
      applied_discount_amount: 0,
      discount_quantity: Math.min(item.discount_quantity ?? 0, quantity),
      applied_discount_quantity: 0,
      applied_quantity: 0,
      applied_quantity_amount: 0,
      application_details: [],
    };
  });
  const { amount, discount_amount } = computed.order;
  return {
    ok: true,
    state: {
      initial_amount: amount,
      added_amount: 0,
      discount_amount,
      applied_discount_amount: 0,
      lines,
      problems: [],
    },
  };
}

type CalculatedFigures = { amount: number | null; discount_amount: number };

/** What is left to pay for a line: never below zero. */
export const lineLeft = (line: Line): number => (line.amount ?? 0) - line.discount_amount;

/** What is left to pay for the order: its amount less every discount so far. */
export const orderLeft = (state: OrderState): number =>
  state.initial_amount +
  state.added_amount -
  state.discount_amount -
  sum(state.lines.map((line) => line.discount_amount));

/**
 * The calculated order as the reference answers it (OrderCalculated, OrderCalculatedItem).
 * The `applied_*` figures are this request's; with a tally, they are only that redeemable's,
 * as a child redemption's order shows them (the reference's stacked validation example:
 * discount_amount accumulates down the stack while applied_discount_amount is each one's own).
 */
export function presentOrder(state: OrderState, tally?: Tally): CalculatedOrder {
  const computed = computeOrderAmounts({
    amount: state.initial_amount + state.added_amount,
    discount_amount: state.discount_amount,
    items: state.lines.map((line) => ({ amount: line.amount, discount_amount: line.discount_amount })),
  });
  // The engine keeps every figure within its amount; a problem here is the engine's own bug.
  if (!computed.ok) throw new Error(`discount engine broke an order invariant: ${computed.problems.join('; ')}`);
  const items = state.lines.map((line, i) =>
    presentLine(line, computed.items[i]?.subtotal_amount ?? null, tally ? appliedBy(tally, i) : appliedIn(line)),
  );
  const applied = tally ? tally.order : state.applied_discount_amount;
  const itemsApplied = sum(items.map((item) => item.applied_discount_amount));
  const { amount, discount_amount, items_discount_amount, total_discount_amount, total_amount } = computed.order;
  // Fields named one by one: an object spread here cost ten times the whole computation.
  return {
    amount,
    discount_amount,
    items_discount_amount,
    total_discount_amount,
    total_amount,
    initial_amount: state.initial_amount,
    applied_discount_amount: applied,
    items_applied_discount_amount: itemsApplied,
    total_applied_discount_amount: applied + itemsApplied,
    items,
  };
}

/** What was applied to a line: in the whole request, or by one redeemable. */
interface Applied {
  discount_amount: number;
  discount_quantity: number;
  quantity: number;
  quantity_amount: number;
  details: ApplicationDetail[];
}

const appliedIn = (line: Line): Applied => ({
  discount_amount: line.applied_discount_amount,
  discount_quantity: line.applied_discount_quantity,
  quantity: line.applied_quantity,
  quantity_amount: line.applied_quantity_amount,
  details: line.application_details,
});

function appliedBy(tally: Tally, index: number): Applied {
  const part = tally.items.get(index);
  return {
    discount_amount: part?.discount_amount ?? 0,
    discount_quantity: part?.discount_quantity ?? 0,
    quantity: part?.applied_quantity ?? 0,
    quantity_amount: part?.applied_quantity_amount ?? 0,
    details: tally.details.get(index) ?? [],
  };
}

function presentLine(line: Line, subtotal: number | null, applied: Applied): CalculatedItem {
  return {
    product_id: line.product_id,
    sku_id: line.sku_id,
    quantity: line.quantity,
    initial_quantity: line.initial_quantity,
    discount_quantity: line.discount_quantity,
    applied_discount_quantity: applied.discount_quantity,
    applied_quantity: applied.quantity,
    applied_quantity_amount: applied.quantity_amount,
    price: line.price,
    amount: line.amount,
    initial_amount: line.initial_amount,
    discount_amount: line.discount_amount,
    applied_discount_amount: applied.discount_amount,
    subtotal_amount: subtotal,
    application_details: applied.details.map((detail) => ({ ...detail })),
  };
}

/** A redeemable's plan: what it takes off the order, and off each touched item (and how many units). */
export interface Plan {
  order: number;
  items: Array<{ index: number; amount: number; units: number }>;
}

/** What one redeemable did, gathered while its plans apply. */
export interface Tally {
  order: number;
  items: Map<number, ItemContribution>;
  details: Map<number, ApplicationDetail[]>;
}

export const newTally = (): Tally => ({ order: 0, items: new Map(), details: new Map() });

function contributionOf(tally: Tally, index: number): ItemContribution {
  const found = tally.items.get(index);
  if (found) return found;
  const created = { index, discount_amount: 0, discount_quantity: 0, applied_quantity: 0, applied_quantity_amount: 0 };
  tally.items.set(index, created);
  return created;
}

/**
 * A plan applied. A line's discount_quantity is the most units any one discount touched (never
 * more than its quantity): discounts stacked on the same units do not count them twice.
 */
export function applyPlan(state: OrderState, plan: Plan, tally: Tally): void {
  state.discount_amount += plan.order;
  state.applied_discount_amount += plan.order;
  tally.order += plan.order;
  for (const { index, amount, units } of plan.items) {
    const line = state.lines[index] as Line;
    line.discount_amount += amount;
    line.applied_discount_amount += amount;
    line.discount_quantity = Math.min(line.quantity, Math.max(line.discount_quantity, units));
    line.applied_discount_quantity = Math.min(line.quantity, Math.max(line.applied_discount_quantity, units));
    const contribution = contributionOf(tally, index);
    contribution.discount_amount += amount;
    contribution.discount_quantity = Math.max(contribution.discount_quantity, units);
  }
}

/** Units added to a line at `price` each: its quantity and amount grow, and the order's amount. */
export function addUnits(state: OrderState, index: number, units: number, price: number, tally: Tally): void {
  const line = state.lines[index] as Line;
  const value = price * units;
  line.quantity += units;
  line.amount = (line.amount ?? 0) + value;
  line.applied_quantity += units;
  line.applied_quantity_amount += value;
  state.added_amount += value;
  const contribution = contributionOf(tally, index);
  contribution.applied_quantity += units;
  contribution.applied_quantity_amount += value;
}

/** Units a UNIT discount added, recorded as the reference's application details (no source: nothing is replaced). */
export function recordAddition(state: OrderState, index: number, units: number, discount: number, tally: Tally): void {
  const line = state.lines[index] as Line;
  const detail: ApplicationDetail = {
    target_index: index,
    target_applied_quantity: units,
    target_applied_quantity_amount: (line.price ?? 0) * units,
    target_applied_discount_amount: discount,
  };
  line.application_details.push(detail);
  tally.details.set(index, [...(tally.details.get(index) ?? []), detail]);
}
