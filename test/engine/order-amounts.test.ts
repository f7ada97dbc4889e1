import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeOrderAmounts, type ComputedAmounts, type OrderFigures } from '../../src/engine/orders/amounts.js';

const MAX = Number.MAX_SAFE_INTEGER;
const order = (amount: number, discount = 0, itemsDiscount = 0) => ({
  amount,
  discount_amount: discount,
  items_discount_amount: itemsDiscount,
  total_discount_amount: discount + itemsDiscount,
  total_amount: amount - discount - itemsDiscount,
});
const item = (amount: number | null, discount = 0) => ({
  amount,
  discount_amount: discount,
  subtotal_amount: amount === null ? null : amount - discount,
});

const cases: Array<[string, OrderFigures, ComputedAmounts]> = [
  ['an empty order', { items: [] }, { ok: true, items: [], order: order(0) }],
  ['price x quantity', { items: [{ price: 250, quantity: 4 }] }, { ok: true, items: [item(1000)], order: order(1000) }],
  [
    'a price without quantity is one unit',
    { items: [{ price: 250 }] },
    { ok: true, items: [item(250)], order: order(250) },
  ],
  [
    'a sent item amount wins over price x quantity',
    { items: [{ price: 250, quantity: 4, amount: 900 }] },
    { ok: true, items: [item(900)], order: order(900) },
  ],
  [
    'an item without price or amount has none, and adds nothing',
    { items: [{ quantity: 2 }, { amount: 10 }] },
    { ok: true, items: [item(null), item(10)], order: order(10) },
  ],
  [
    "a sent order amount wins over the items' sum",
    { amount: 5000, items: [{ amount: 10 }] },
    { ok: true, items: [item(10)], order: order(5000) },
  ],
  [
    'order and item discounts add up; subtotals per item',
    {
      discount_amount: 100,
      items: [
        { amount: 1000, discount_amount: 200 },
        { amount: 500, discount_amount: 50 },
      ],
    },
    { ok: true, items: [item(1000, 200), item(500, 50)], order: order(1500, 100, 250) },
  ],
  [
    'discounts may take the whole amount',
    { discount_amount: 1000, items: [{ amount: 1000 }] },
    { ok: true, items: [item(1000)], order: order(1000, 1000) },
  ],
  [
    'an item discount beyond its amount',
    { items: [{ price: 10, quantity: 3, discount_amount: 31 }] },
    { ok: false, problems: ["items[0].discount_amount must not exceed the item's amount (30)"] },
  ],
  [
    'discounts beyond the order amount',
    { amount: 100, discount_amount: 60, items: [{ amount: 100, discount_amount: 50 }] },
    {
      ok: false,
      problems: ["discount_amount and the items' discount_amount (110 in all) must not exceed amount (100)"],
    },
  ],
  [
    'price x quantity beyond 2^53, and every problem at once',
    {
      items: [
        { price: MAX, quantity: 2 },
        { amount: 1, discount_amount: 2 },
      ],
    },
    {
      ok: false,
      problems: [
        `items[0].amount (price x quantity) must be at most ${MAX}`,
        "items[1].discount_amount must not exceed the item's amount (1)",
      ],
    },
  ],
  [
    'sums beyond 2^53',
    { items: [{ amount: MAX }, { amount: 1 }] },
    { ok: false, problems: [`amount must be at most ${MAX}`] },
  ],
];

describe('engine: order amounts', () => {
  for (const [name, input, expected] of cases) {
    it(name, () => assert.deepEqual(computeOrderAmounts(input), expected));
  }
});
