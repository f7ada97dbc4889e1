import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyStack,
  type DiscountOrder,
  type FixedDiscount,
  type ItemTarget,
  type PercentDiscount,
  type StackResult,
} from '../../../src/engine/discounts/index.js';
import { alone, item, order, part } from './support.js';

const SHOP: DiscountOrder = {
  items: [
    { product_id: 'mug', price: 2000 },
    { product_id: 'pen', price: 8000 },
    { product_id: 'tee', price: 5000 },
  ],
};
const BULK: DiscountOrder = {
  items: [
    { product_id: 'cup', price: 500, quantity: 3 },
    { product_id: 'pin', price: 200, quantity: 2 },
    { product_id: 'hat', price: 1000, quantity: 1 },
  ],
};
/** The reference's APPLY_TO_ORDER example: a sent amount of 20050 over items of 6000. */
const SENT_AMOUNT: DiscountOrder = {
  amount: 20050,
  items: [
    { price: 3000, quantity: 1, amount: 3000 },
    { price: 2000, quantity: 1, amount: 2000 },
    { price: 1000, quantity: 2, amount: 1000 },
  ],
};

type Stack = Parameters<typeof applyStack>[1];
const percent = (fields: Omit<PercentDiscount, 'type'>, items?: ItemTarget[]): Stack => [
  { kind: 'discount', discount: { type: 'PERCENT', ...fields }, items },
];
const fixed = (fields: Omit<FixedDiscount, 'type'>, items?: ItemTarget[]): Stack => [
  { kind: 'discount', discount: { type: 'FIXED', ...fields }, items },
];
const shop = (d: number[], q: number[]) =>
  ['mug', 'pen', 'tee'].map((id, i) =>
    item({
      product_id: id,
      quantity: 1,
      price: [2000, 8000, 5000][i] as number,
      discount: d[i],
      discount_quantity: q[i],
    }),
  );
const bulk = (d: number[], q: number[]) => [
  item({ product_id: 'cup', quantity: 3, price: 500, discount: d[0], discount_quantity: q[0] }),
  item({ product_id: 'pin', quantity: 2, price: 200, discount: d[1], discount_quantity: q[1] }),
  item({ product_id: 'hat', quantity: 1, price: 1000, discount: d[2], discount_quantity: q[2] }),
];
const one = (price: number) => ({ items: [{ price }] });
const oneAfter = (price: number, discount: number, total: number) =>
  order({ amount: price, discount, total_amount: total }, [item({ quantity: 1, price })]);

const cases: Array<[string, DiscountOrder, Stack, StackResult]> = [
  [
    "PERCENT APPLY_TO_ORDER: the reference's example, 10% of 20050",
    SENT_AMOUNT,
    percent({ percent_off: 10, effect: 'APPLY_TO_ORDER' }),
    alone(
      'discount',
      2005,
      [],
      order({ amount: 20050, discount: 2005, total_amount: 18045 }, [
        item({ quantity: 1, price: 3000 }),
        item({ quantity: 1, price: 2000 }),
        item({ quantity: 2, price: 1000, amount: 1000 }),
      ]),
    ),
  ],
  [
    'PERCENT rounds half-up: 12.5% of 1004 is 125.5 -> 126',
    one(1004),
    percent({ percent_off: 12.5 }),
    alone('discount', 126, [], oneAfter(1004, 126, 878)),
  ],
  [
    'PERCENT rounds half-up: 12.5% of 1003 is 125.375 -> 125',
    one(1003),
    percent({ percent_off: 12.5 }),
    alone('discount', 125, [], oneAfter(1003, 125, 878)),
  ],
  [
    'PERCENT is exact, not binary floating point: 2.3% of 1500 is 34.5 -> 35',
    one(1500),
    percent({ percent_off: 2.3 }),
    alone('discount', 35, [], oneAfter(1500, 35, 1465)),
  ],
  [
    'PERCENT APPLY_TO_ORDER capped by amount_limit',
    SHOP,
    percent({ percent_off: 50, amount_limit: 5000 }),
    alone(
      'discount',
      5000,
      [],
      order({ amount: 15000, discount: 5000, total_amount: 10000 }, shop([0, 0, 0], [0, 0, 0])),
    ),
  ],
  [
    'PERCENT APPLY_TO_ITEMS: each named line, amount_limit capping each',
    SHOP,
    percent({ percent_off: 15, amount_limit: 1000, effect: 'APPLY_TO_ITEMS' }, [{ index: 0 }, { index: 1 }]),
    alone(
      'discount',
      0,
      [part(0, 300, 1), part(1, 1000, 1)],
      order({ amount: 15000, total_amount: 13700 }, shop([300, 1000, 0], [1, 1, 0])),
    ),
  ],
  [
    'PERCENT APPLY_TO_ITEMS rounds each line half-up',
    { items: [{ price: 1004 }, { price: 1003 }] },
    percent({ percent_off: 12.5, effect: 'APPLY_TO_ITEMS' }),
    alone(
      'discount',
      0,
      [part(0, 126, 1), part(1, 125, 1)],
      order({ amount: 2007, total_amount: 1756 }, [
        item({ quantity: 1, price: 1004, discount: 126, discount_quantity: 1 }),
        item({ quantity: 1, price: 1003, discount: 125, discount_quantity: 1 }),
      ]),
    ),
  ],
  [
    "PERCENT APPLY_TO_ITEMS on a rule's limited units",
    BULK,
    percent({ percent_off: 10, effect: 'APPLY_TO_ITEMS' }, [{ index: 0, quantity_limit: 2 }]),
    alone('discount', 0, [part(0, 100, 2)], order({ amount: 2900, total_amount: 2800 }, bulk([100, 0, 0], [2, 0, 0]))),
  ],
  [
    'PERCENT APPLY_TO_ITEMS with aggregated_amount_limit: 1000 + 4000 shrunk to 1000 in proportion',
    SHOP,
    percent({ percent_off: 50, aggregated_amount_limit: 1000, effect: 'APPLY_TO_ITEMS' }, [{ index: 0 }, { index: 1 }]),
    alone(
      'discount',
      0,
      [part(0, 200, 1), part(1, 800, 1)],
      order({ amount: 15000, total_amount: 14000 }, shop([200, 800, 0], [1, 1, 0])),
    ),
  ],
  [
    'FIXED APPLY_TO_ORDER brings the order to fixed_amount',
    SHOP,
    fixed({ fixed_amount: 12000 }),
    alone(
      'discount',
      3000,
      [],
      order({ amount: 15000, discount: 3000, total_amount: 12000 }, shop([0, 0, 0], [0, 0, 0])),
    ),
  ],
  [
    'FIXED APPLY_TO_ORDER never raises the order: no effect',
    SHOP,
    fixed({ fixed_amount: 20000, effect: 'APPLY_TO_ORDER' }),
    (() => {
      const after = order({ amount: 15000, total_amount: 15000 }, shop([0, 0, 0], [0, 0, 0]));
      return {
        ok: true as const,
        order: after,
        redeemables: [
          {
            kind: 'discount' as const,
            discount_amount: 0,
            order_discount_amount: 0,
            items_discount_amount: 0,
            items: [],
            no_effect: true,
            credits_used: 0,
            order: after,
          },
        ],
      };
    })(),
  ],
  [
    'FIXED APPLY_TO_ITEMS brings each unit to fixed_amount, never raising one',
    BULK,
    fixed({ fixed_amount: 300, effect: 'APPLY_TO_ITEMS' }, [{ index: 0 }, { index: 1 }, { index: 2 }]),
    alone(
      'discount',
      0,
      [part(0, 600, 3), part(2, 700, 1)],
      order({ amount: 2900, total_amount: 1600 }, bulk([600, 0, 700], [3, 0, 1])),
    ),
  ],
  [
    "FIXED APPLY_TO_ITEMS on a rule's limited units",
    BULK,
    fixed({ fixed_amount: 300 }, [{ index: 0, quantity_limit: 2 }]),
    alone('discount', 0, [part(0, 400, 2)], order({ amount: 2900, total_amount: 2500 }, bulk([400, 0, 0], [2, 0, 0]))),
  ],
];

describe('engine: PERCENT and FIXED discounts', () => {
  for (const [name, input, stack, expected] of cases) {
    it(name, () => assert.deepEqual(applyStack(input, stack), expected));
  }
});
