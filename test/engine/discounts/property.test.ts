import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../support/random.js';
import {
  AMOUNT_EFFECTS,
  applyStack,
  SHIPPING_UNIT_TYPE,
  type CalculatedOrder,
  type Discount,
  type DiscountOrder,
  type ItemTarget,
  type OrderLine,
  type Redeemable,
  type RedeemableResult,
} from '../../../src/engine/discounts/index.js';

/**
 * Random orders and stacks (a seeded generator, so a failure replays): whatever the stack,
 * no amount goes below zero, every figure is a whole number, and every sum adds up.
 */
function generator(seed: number) {
  const next = seededRandom(seed);
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(values: readonly T[]): T => values[int(0, values.length - 1)] as T;
  const chance = (p: number): boolean => next() < p;
  return { int, pick, chance };
}
type Random = ReturnType<typeof generator>;

const PRODUCTS = ['p1', 'p2', 'p3', SHIPPING_UNIT_TYPE];

function randomLine(r: Random): OrderLine {
  const quantity = r.chance(0.8) ? r.int(0, 5) : undefined;
  const price = r.chance(0.85) ? r.int(0, 10000) : null;
  const amount =
    price === null
      ? r.chance(0.8)
        ? r.int(0, 20000)
        : null
      : r.chance(0.2)
        ? r.int(0, price * (quantity ?? 1))
        : undefined;
  const known = amount ?? (price === null ? null : price * (quantity ?? 1));
  const previous = known !== null && r.chance(0.2) ? r.int(0, known) : undefined;
  return {
    product_id: r.pick(PRODUCTS),
    sku_id: r.chance(0.2) ? 'sku_1' : null,
    quantity,
    price,
    amount,
    discount_amount: previous,
  };
}

function randomOrder(r: Random): DiscountOrder {
  const items = Array.from({ length: r.int(0, 5) }, () => randomLine(r));
  const itemsSum = items.reduce((s, i) => s + (i.amount ?? (i.price == null ? 0 : i.price * (i.quantity ?? 1))), 0);
  const itemsDiscount = items.reduce((s, i) => s + (i.discount_amount ?? 0), 0);
  const amount = r.chance(0.2) ? r.int(itemsDiscount, itemsSum + 5000) : undefined;
  const discount = r.chance(0.2) ? r.int(0, Math.max(0, (amount ?? itemsSum) - itemsDiscount)) : undefined;
  return { amount, discount_amount: discount, items };
}

function randomTargets(r: Random, count: number): ItemTarget[] | undefined {
  if (r.chance(0.3)) return undefined;
  return Array.from({ length: r.int(0, count + 1) }, () => ({
    index: r.int(0, count + 1),
    quantity_limit: r.chance(0.3) ? r.int(0, 4) : null,
  }));
}

function randomDiscount(r: Random): Discount {
  const limit = () => (r.chance(0.3) ? r.int(0, 8000) : null);
  switch (r.pick(['AMOUNT', 'PERCENT', 'FIXED', 'UNIT'] as const)) {
    case 'AMOUNT':
      return {
        type: 'AMOUNT',
        amount_off: r.int(0, 12000),
        effect: r.pick(AMOUNT_EFFECTS),
        aggregated_amount_limit: limit(),
      };
    case 'PERCENT':
      return {
        type: 'PERCENT',
        percent_off: r.int(0, 1000) / 10,
        amount_limit: limit(),
        aggregated_amount_limit: limit(),
        effect: r.pick(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS'] as const),
      };
    case 'FIXED':
      return {
        type: 'FIXED',
        fixed_amount: r.int(0, 12000),
        effect: r.pick(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS'] as const),
      };
    case 'UNIT': {
      const unit = () => ({
        unit_off: r.int(0, 3),
        unit_type: r.pick(PRODUCTS),
        effect: r.pick(['ADD_MISSING_ITEMS', 'ADD_NEW_ITEMS'] as const),
        sku: r.chance(0.2) ? { id: 'sku_1' } : null,
      });
      return r.chance(0.3)
        ? { type: 'UNIT', effect: 'ADD_MANY_ITEMS', units: [unit(), unit()] }
        : { type: 'UNIT', ...unit() };
    }
  }
}

function randomRedeemable(r: Random, count: number): Redeemable {
  if (r.chance(0.2)) {
    return {
      kind: 'gift',
      balance: r.int(0, 30000),
      credits: r.chance(0.5) ? r.int(0, 30000) : null,
      effect: r.pick(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS'] as const),
      items: randomTargets(r, count),
    };
  }
  const unitPrices = Object.fromEntries(PRODUCTS.filter(() => r.chance(0.7)).map((p) => [p, r.int(0, 5000)]));
  return { kind: 'discount', discount: randomDiscount(r), items: randomTargets(r, count), unit_prices: unitPrices };
}

const total = (values: number[]) => values.reduce((s, v) => s + v, 0);

/** Every figure of a calculated order is a whole number >= 0, and its sums add up. */
function checkOrder(o: CalculatedOrder, where: string, whole: boolean): void {
  for (const [key, value] of Object.entries(o))
    if (key !== 'items')
      assert.ok(Number.isSafeInteger(value) && (value as number) >= 0, `${where}: order.${key} = ${value}`);
  for (const [i, it] of o.items.entries()) {
    for (const [key, value] of Object.entries(it)) {
      if (typeof value === 'number')
        assert.ok(Number.isSafeInteger(value) && value >= 0, `${where}: items[${i}].${key} = ${value}`);
    }
    assert.ok(
      it.discount_quantity <= it.quantity &&
        it.applied_discount_quantity <= it.discount_quantity &&
        it.applied_quantity <= it.quantity,
      `${where}: items[${i}] quantities`,
    );
    assert.ok(it.applied_discount_amount <= it.discount_amount, `${where}: items[${i}] applied within discount`);
    assert.equal(
      it.subtotal_amount,
      it.amount === null ? null : it.amount - it.discount_amount,
      `${where}: items[${i}].subtotal_amount`,
    );
  }
  assert.equal(
    o.items_discount_amount,
    total(o.items.map((i) => i.discount_amount)),
    `${where}: items_discount_amount`,
  );
  assert.equal(
    o.items_applied_discount_amount,
    total(o.items.map((i) => i.applied_discount_amount)),
    `${where}: items_applied_discount_amount`,
  );
  assert.equal(o.total_discount_amount, o.discount_amount + o.items_discount_amount, `${where}: total_discount_amount`);
  assert.equal(
    o.total_applied_discount_amount,
    o.applied_discount_amount + o.items_applied_discount_amount,
    `${where}: total_applied_discount_amount`,
  );
  assert.equal(o.total_amount, o.amount - o.total_discount_amount, `${where}: total_amount`);
  // The whole request's order: its amount is the sent one plus every unit the stack added.
  if (whole)
    assert.equal(
      o.amount,
      o.initial_amount + total(o.items.map((i) => i.applied_quantity_amount)),
      `${where}: amount = initial + added`,
    );
}

/**
 * A redeemable's parts add up to its total; its order shows the stack so far, with its own
 * applied figures; the order before it shrinks by exactly what it gave.
 */
function checkRedeemable(res: RedeemableResult, before: CalculatedOrder, redeemable: Redeemable, where: string): void {
  assert.equal(
    res.items_discount_amount,
    total(res.items.map((i) => i.discount_amount)),
    `${where}: items_discount_amount`,
  );
  assert.equal(res.discount_amount, res.order_discount_amount + res.items_discount_amount, `${where}: discount_amount`);
  assert.equal(res.order.total_applied_discount_amount, res.discount_amount, `${where}: applied total is its own`);
  assert.equal(res.order.applied_discount_amount, res.order_discount_amount, `${where}: order part`);
  const added = total(res.items.map((i) => i.applied_quantity_amount));
  assert.equal(
    res.order.total_amount,
    before.total_amount + added - res.discount_amount,
    `${where}: what is left shrank by it`,
  );
  res.order.items.forEach((now, index) => {
    const c = res.items.find((i) => i.index === index);
    assert.equal(now.applied_discount_amount, c?.discount_amount ?? 0, `${where}: item ${index} applied is its part`);
    assert.equal(
      now.discount_amount - (before.items[index]?.discount_amount ?? 0),
      c?.discount_amount ?? 0,
      `${where}: item ${index} grew by its part`,
    );
    assert.equal(now.applied_quantity, c?.applied_quantity ?? 0, `${where}: item ${index} added units`);
  });
  assert.equal(
    res.no_effect,
    res.discount_amount === 0 && res.items.every((i) => i.applied_quantity === 0),
    `${where}: no_effect`,
  );
  if (redeemable.kind === 'gift') {
    assert.equal(res.credits_used, res.discount_amount, `${where}: credits`);
    assert.ok(
      res.credits_used <= Math.min(redeemable.balance, redeemable.credits ?? Infinity, before.total_amount),
      `${where}: gift beyond what was left`,
    );
  } else {
    assert.equal(res.credits_used, 0, `${where}: credits of a discount`);
  }
}

/** The whole request's applied figures are the redeemables' parts, summed. */
function checkWhole(final: CalculatedOrder, results: RedeemableResult[], where: string): void {
  assert.equal(
    final.applied_discount_amount,
    total(results.map((r) => r.order_discount_amount)),
    `${where}: applied order discounts`,
  );
  final.items.forEach((it, index) => {
    const parts = results.flatMap((r) => r.items.filter((i) => i.index === index));
    assert.equal(
      it.applied_discount_amount,
      total(parts.map((p) => p.discount_amount)),
      `${where}: item ${index} applied`,
    );
    assert.equal(it.applied_quantity, total(parts.map((p) => p.applied_quantity)), `${where}: item ${index} added`);
  });
}

describe('engine: random orders and stacks', () => {
  it('never go below zero and always add up (4000 seeded cases)', () => {
    const seen = { cases: 0, discounted: 0, added: 0, noEffect: 0, gifts: 0 };
    for (let seed = 1; seed <= 4000; seed += 1) {
      const r = generator(seed);
      const input = randomOrder(r);
      const stack = Array.from({ length: r.int(1, 6) }, () => randomRedeemable(r, input.items.length));
      const result = applyStack(input, stack, { products_application_mode: r.chance(0.3) ? 'ONCE' : 'STACK' });
      assert.ok(result.ok, `seed ${seed}: ${JSON.stringify(!result.ok && result.problems)}`);
      seen.cases += 1;
      const start = applyStack(input, []);
      assert.ok(start.ok);
      let previous = start.order;
      checkOrder(result.order, `seed ${seed}`, true);
      checkWhole(result.order, result.redeemables, `seed ${seed}`);
      result.redeemables.forEach((res, k) => {
        checkOrder(res.order, `seed ${seed} after #${k}`, false);
        checkRedeemable(res, previous, stack[k] as Redeemable, `seed ${seed} #${k}`);
        previous = res.order;
        seen.discounted += res.discount_amount > 0 ? 1 : 0;
        seen.added += res.items.some((i) => i.applied_quantity > 0) ? 1 : 0;
        seen.noEffect += res.no_effect ? 1 : 0;
        seen.gifts += res.credits_used > 0 ? 1 : 0;
      });
      const { items: lastItems, ...last } = previous;
      const { items: finalItems, ...final } = result.order;
      const amounts = (items: CalculatedOrder['items']) =>
        items.map((i) => [i.quantity, i.amount, i.discount_amount, i.subtotal_amount]);
      assert.deepEqual(
        [last.amount, last.discount_amount, last.total_amount, amounts(lastItems)],
        [final.amount, final.discount_amount, final.total_amount, amounts(finalItems)],
        `seed ${seed}: the last redeemable's order has the final amounts`,
      );
    }
    // The generator reaches every kind of outcome, not only trivial ones.
    assert.equal(seen.cases, 4000);
    for (const [kind, count] of Object.entries(seen))
      assert.ok(count >= 500, `only ${count} redeemables of kind ${kind}`);
  });
});
