import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyStack,
  type AmountDiscount,
  type DiscountOrder,
  type ItemTarget,
  type StackResult,
} from '../../../src/engine/discounts/index.js';
import { alone, item, order, part } from './support.js';

/** Three lines of one unit each: the reference's APPLY_TO_ITEMS_PROPORTIONALLY example, less the phone. */
const SHOP: DiscountOrder = {
  items: [
    { product_id: 'mug', price: 2000 },
    { product_id: 'pen', price: 8000 },
    { product_id: 'tee', price: 5000 },
  ],
};
/** Lines with several units. */
const BULK: DiscountOrder = {
  items: [
    { product_id: 'cup', price: 500, quantity: 3 },
    { product_id: 'pin', price: 200, quantity: 2 },
    { product_id: 'hat', price: 1000, quantity: 1 },
  ],
};

const amount = (fields: Omit<AmountDiscount, 'type'>, items?: ItemTarget[]) => [
  { kind: 'discount' as const, discount: { type: 'AMOUNT' as const, ...fields }, items },
];
const shop = (discounts: number[], quantities: number[]) => [
  item({ product_id: 'mug', quantity: 1, price: 2000, discount: discounts[0], discount_quantity: quantities[0] }),
  item({ product_id: 'pen', quantity: 1, price: 8000, discount: discounts[1], discount_quantity: quantities[1] }),
  item({ product_id: 'tee', quantity: 1, price: 5000, discount: discounts[2], discount_quantity: quantities[2] }),
];
const bulk = (discounts: number[], quantities: number[]) => [
  item({ product_id: 'cup', quantity: 3, price: 500, discount: discounts[0], discount_quantity: quantities[0] }),
  item({ product_id: 'pin', quantity: 2, price: 200, discount: discounts[1], discount_quantity: quantities[1] }),
  item({ product_id: 'hat', quantity: 1, price: 1000, discount: discounts[2], discount_quantity: quantities[2] }),
];

const cases: Array<[string, DiscountOrder, ReturnType<typeof amount>, StackResult]> = [
  [
    'APPLY_TO_ORDER takes amount_off off the order, not the items',
    SHOP,
    amount({ amount_off: 1000, effect: 'APPLY_TO_ORDER' }),
    alone(
      'discount',
      1000,
      [],
      order({ amount: 15000, discount: 1000, total_amount: 14000 }, shop([0, 0, 0], [0, 0, 0])),
    ),
  ],
  [
    'APPLY_TO_ORDER never takes the order below zero',
    SHOP,
    amount({ amount_off: 20000, effect: 'APPLY_TO_ORDER' }),
    alone(
      'discount',
      15000,
      [],
      order({ amount: 15000, discount: 15000, total_amount: 0 }, shop([0, 0, 0], [0, 0, 0])),
    ),
  ],
  [
    'APPLY_TO_ORDER within aggregated_amount_limit',
    SHOP,
    amount({ amount_off: 1000, effect: 'APPLY_TO_ORDER', aggregated_amount_limit: 600 }),
    alone(
      'discount',
      600,
      [],
      order({ amount: 15000, discount: 600, total_amount: 14400 }, shop([0, 0, 0], [0, 0, 0])),
    ),
  ],
  [
    "no effect and no items named: the order (the reference's default); a fraction of a cent rounds half-up",
    SHOP,
    amount({ amount_off: 999.5 }),
    alone(
      'discount',
      1000,
      [],
      order({ amount: 15000, discount: 1000, total_amount: 14000 }, shop([0, 0, 0], [0, 0, 0])),
    ),
  ],
  [
    'APPLY_TO_ITEMS takes amount_off off each named line, capped at the line',
    SHOP,
    amount({ amount_off: 3000, effect: 'APPLY_TO_ITEMS' }, [{ index: 0 }, { index: 1 }]),
    alone(
      'discount',
      0,
      [part(0, 2000, 1), part(1, 3000, 1)],
      order({ amount: 15000, total_amount: 10000 }, shop([2000, 3000, 0], [1, 1, 0])),
    ),
  ],
  [
    'APPLY_TO_ITEMS is per line whatever its quantity; no effect with items named means APPLY_TO_ITEMS',
    BULK,
    amount({ amount_off: 300 }, [{ index: 0 }, { index: 1 }]),
    alone(
      'discount',
      0,
      [part(0, 300, 3), part(1, 300, 2)],
      order({ amount: 2900, total_amount: 2300 }, bulk([300, 300, 0], [3, 2, 0])),
    ),
  ],
  [
    'APPLY_TO_ITEMS with aggregated_amount_limit: the parts shrink in proportion, remainder to the earlier line',
    SHOP,
    amount({ amount_off: 1000, effect: 'APPLY_TO_ITEMS', aggregated_amount_limit: 1000 }),
    alone(
      'discount',
      0,
      [part(0, 334, 1), part(1, 333, 1), part(2, 333, 1)],
      order({ amount: 15000, total_amount: 14000 }, shop([334, 333, 333], [1, 1, 1])),
    ),
  ],
  [
    'APPLY_TO_ITEMS_BY_QUANTITY takes amount_off off each unit, capped at the line',
    BULK,
    amount({ amount_off: 300, effect: 'APPLY_TO_ITEMS_BY_QUANTITY' }, [{ index: 0 }, { index: 1 }]),
    alone(
      'discount',
      0,
      [part(0, 900, 3), part(1, 400, 2)],
      order({ amount: 2900, total_amount: 1600 }, bulk([900, 400, 0], [3, 2, 0])),
    ),
  ],
  [
    "APPLY_TO_ITEMS_BY_QUANTITY within a rule's quantity limit",
    BULK,
    amount({ amount_off: 300, effect: 'APPLY_TO_ITEMS_BY_QUANTITY' }, [
      { index: 0, quantity_limit: 2 },
      { index: 2, quantity_limit: 5 },
    ]),
    alone(
      'discount',
      0,
      [part(0, 600, 2), part(2, 300, 1)],
      order({ amount: 2900, total_amount: 2000 }, bulk([600, 0, 300], [2, 0, 1])),
    ),
  ],
  [
    "APPLY_TO_ITEMS_PROPORTIONALLY: the reference's example, 1000 over 2000 and 8000",
    SHOP,
    amount({ amount_off: 1000, effect: 'APPLY_TO_ITEMS_PROPORTIONALLY' }, [{ index: 1 }, { index: 0 }]),
    alone(
      'discount',
      0,
      [part(0, 200, 1), part(1, 800, 1)],
      order({ amount: 15000, total_amount: 14000 }, shop([200, 800, 0], [1, 1, 0])),
    ),
  ],
  [
    'APPLY_TO_ITEMS_PROPORTIONALLY: 10 over 1500, 400, 1000 is 5.17, 1.38, 3.45: the largest remainder takes the cent',
    BULK,
    amount({ amount_off: 10, effect: 'APPLY_TO_ITEMS_PROPORTIONALLY' }),
    alone(
      'discount',
      0,
      [part(0, 5, 3), part(1, 1, 2), part(2, 4, 1)],
      order({ amount: 2900, total_amount: 2890 }, bulk([5, 1, 4], [3, 2, 1])),
    ),
  ],
  [
    'APPLY_TO_ITEMS_PROPORTIONALLY: equal remainders go to the earlier line',
    { items: [{ price: 1000 }, { price: 1000 }, { price: 1000 }] },
    amount({ amount_off: 100, effect: 'APPLY_TO_ITEMS_PROPORTIONALLY' }),
    alone(
      'discount',
      0,
      [part(0, 34, 1), part(1, 33, 1), part(2, 33, 1)],
      order({ amount: 3000, total_amount: 2900 }, [
        item({ quantity: 1, price: 1000, discount: 34, discount_quantity: 1 }),
        item({ quantity: 1, price: 1000, discount: 33, discount_quantity: 1 }),
        item({ quantity: 1, price: 1000, discount: 33, discount_quantity: 1 }),
      ]),
    ),
  ],
  [
    'APPLY_TO_ITEMS_PROPORTIONALLY beyond the lines gives only what they hold',
    SHOP,
    amount({ amount_off: 20000, effect: 'APPLY_TO_ITEMS_PROPORTIONALLY' }, [{ index: 0 }, { index: 1 }]),
    alone(
      'discount',
      0,
      [part(0, 2000, 1), part(1, 8000, 1)],
      order({ amount: 15000, total_amount: 5000 }, shop([2000, 8000, 0], [1, 1, 0])),
    ),
  ],
  [
    'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY: 100 over 3, 2 and 1 units is 50, 33.3, 16.7',
    BULK,
    amount({ amount_off: 100, effect: 'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY' }),
    alone(
      'discount',
      0,
      [part(0, 50, 3), part(1, 33, 2), part(2, 17, 1)],
      order({ amount: 2900, total_amount: 2800 }, bulk([50, 33, 17], [3, 2, 1])),
    ),
  ],
  [
    'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY: a share beyond its line goes to the others',
    BULK,
    amount({ amount_off: 1500, effect: 'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY' }, [{ index: 0 }, { index: 1 }]),
    alone(
      'discount',
      0,
      [part(0, 1100, 3), part(1, 400, 2)],
      order({ amount: 2900, total_amount: 1400 }, bulk([1100, 400, 0], [3, 2, 0])),
    ),
  ],
  [
    "APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY counts a rule's limited units only",
    BULK,
    amount({ amount_off: 400, effect: 'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY' }, [
      { index: 0, quantity_limit: 1 },
      { index: 2 },
    ]),
    alone(
      'discount',
      0,
      [part(0, 200, 1), part(2, 200, 1)],
      order({ amount: 2900, total_amount: 2500 }, bulk([200, 0, 200], [1, 0, 1])),
    ),
  ],
];

describe('engine: AMOUNT discounts', () => {
  for (const [name, input, stack, expected] of cases) {
    it(name, () => assert.deepEqual(applyStack(input, stack), expected));
  }
});
