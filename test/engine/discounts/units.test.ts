import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyStack,
  SHIPPING_UNIT_TYPE,
  type DiscountOrder,
  type StackResult,
  type UnitDiscount,
} from '../../../src/engine/discounts/index.js';
import { alone, item, order, part } from './support.js';

type Stack = Parameters<typeof applyStack>[1];
const unit = (discount: Omit<UnitDiscount, 'type'>, unit_prices?: Record<string, number>): Stack => [
  { kind: 'discount', discount: { type: 'UNIT', ...discount }, unit_prices },
];
const detail = (index: number, units: number, amount: number) => ({
  target_index: index,
  target_applied_quantity: units,
  target_applied_quantity_amount: amount,
  target_applied_discount_amount: amount,
});

/** One T-shirt in the cart: the reference's "give item for free" guide. */
const TEE: DiscountOrder = { items: [{ product_id: 'tee', price: 2900, quantity: 1 }] };
/** The reference's ADD_MANY_ITEMS example: a red and a blue T-shirt. */
const RED_BLUE: DiscountOrder = {
  amount: 6000,
  items: [
    { product_id: 'red', quantity: 1, price: 2900 },
    { product_id: 'blue', quantity: 1, price: 3100 },
  ],
};
const WITH_SHIPPING: DiscountOrder = {
  items: [
    { product_id: 'tee', price: 2900 },
    { product_id: SHIPPING_UNIT_TYPE, price: 500 },
  ],
};

const cases: Array<[string, DiscountOrder, Stack, StackResult]> = [
  [
    'ADD_MISSING_ITEMS with the unit in the cart discounts it and adds nothing',
    TEE,
    unit({ unit_off: 1, unit_type: 'tee', effect: 'ADD_MISSING_ITEMS' }),
    alone(
      'discount',
      0,
      [part(0, 2900, 1)],
      order({ amount: 2900, total_amount: 0 }, [
        item({ product_id: 'tee', quantity: 1, price: 2900, discount: 2900, discount_quantity: 1 }),
      ]),
    ),
  ],
  [
    "ADD_NEW_ITEMS always adds: the line grows to 2 units, one free (the reference's example)",
    TEE,
    unit({ unit_off: 1, unit_type: 'tee', effect: 'ADD_NEW_ITEMS' }, { tee: 9999 }),
    alone(
      'discount',
      0,
      [part(0, 2900, 1, 1, 2900)],
      order({ amount: 5800, initial_amount: 2900, total_amount: 2900 }, [
        item({
          product_id: 'tee',
          quantity: 2,
          price: 2900,
          discount: 2900,
          discount_quantity: 1,
          added: 1,
          added_amount: 2900,
          details: [detail(0, 1, 2900)],
        }),
      ]),
    ),
  ],
  [
    'ADD_MISSING_ITEMS adds only the missing units: 3 wanted, 1 present',
    TEE,
    unit({ unit_off: 3, unit_type: 'tee' }),
    alone(
      'discount',
      0,
      [part(0, 8700, 3, 2, 5800)],
      order({ amount: 8700, initial_amount: 2900, total_amount: 0 }, [
        item({
          product_id: 'tee',
          quantity: 3,
          price: 2900,
          discount: 8700,
          discount_quantity: 3,
          added: 2,
          added_amount: 5800,
          details: [detail(0, 2, 5800)],
        }),
      ]),
    ),
  ],
  [
    'a missing product becomes a new line at the price the caller loaded',
    TEE,
    unit({ unit_off: 1, unit_type: 'cap', effect: 'ADD_MISSING_ITEMS' }, { cap: 1500 }),
    alone(
      'discount',
      0,
      [part(1, 1500, 1, 1, 1500)],
      order({ amount: 4400, initial_amount: 2900, total_amount: 2900 }, [
        item({ product_id: 'tee', quantity: 1, price: 2900 }),
        item({
          product_id: 'cap',
          quantity: 1,
          price: 1500,
          discount: 1500,
          discount_quantity: 1,
          added: 1,
          added_amount: 1500,
          details: [detail(1, 1, 1500)],
        }),
      ]),
    ),
  ],
  [
    "ADD_MANY_ITEMS: the reference's example (amount 9100, items discount 6000, total 3100)",
    RED_BLUE,
    unit({
      effect: 'ADD_MANY_ITEMS',
      units: [
        { unit_off: 1, unit_type: 'red', effect: 'ADD_MISSING_ITEMS' },
        { unit_off: 1, unit_type: 'blue', effect: 'ADD_NEW_ITEMS' },
      ],
    }),
    alone(
      'discount',
      0,
      [part(0, 2900, 1), part(1, 3100, 1, 1, 3100)],
      order({ amount: 9100, initial_amount: 6000, total_amount: 3100 }, [
        item({ product_id: 'red', quantity: 1, price: 2900, discount: 2900, discount_quantity: 1 }),
        item({
          product_id: 'blue',
          quantity: 2,
          price: 3100,
          discount: 3100,
          discount_quantity: 1,
          added: 1,
          added_amount: 3100,
          details: [detail(1, 1, 3100)],
        }),
      ]),
    ),
  ],
  [
    'free shipping: the prod_5h1pp1ng line is discounted',
    WITH_SHIPPING,
    unit({ unit_off: 1, unit_type: SHIPPING_UNIT_TYPE, effect: 'ADD_MISSING_ITEMS' }),
    alone(
      'discount',
      0,
      [part(1, 500, 1)],
      order({ amount: 3400, total_amount: 2900 }, [
        item({ product_id: 'tee', quantity: 1, price: 2900 }),
        item({ product_id: SHIPPING_UNIT_TYPE, quantity: 1, price: 500, discount: 500, discount_quantity: 1 }),
      ]),
    ),
  ],
  [
    'free shipping without a shipping line or a loaded price adds a free line and discounts nothing',
    TEE,
    unit({ unit_off: 1, unit_type: SHIPPING_UNIT_TYPE, effect: 'ADD_MISSING_ITEMS' }),
    alone(
      'discount',
      0,
      [part(1, 0, 1, 1, 0)],
      order({ amount: 2900, total_amount: 2900 }, [
        item({ product_id: 'tee', quantity: 1, price: 2900 }),
        item({
          product_id: SHIPPING_UNIT_TYPE,
          quantity: 1,
          price: 0,
          discount_quantity: 1,
          added: 1,
          added_amount: 0,
          details: [detail(1, 1, 0)],
        }),
      ]),
    ),
  ],
  [
    "a unit naming a SKU counts only that SKU, and adds it at the SKU's loaded price",
    { items: [{ product_id: 'tee', sku_id: 'sku_blue', price: 2900 }] },
    unit({ unit_off: 1, unit_type: 'tee', sku: { id: 'sku_red' } }, { sku_red: 3100, tee: 1 }),
    alone(
      'discount',
      0,
      [part(1, 3100, 1, 1, 3100)],
      order({ amount: 6000, initial_amount: 2900, total_amount: 2900 }, [
        item({ product_id: 'tee', sku_id: 'sku_blue', quantity: 1, price: 2900 }),
        item({
          product_id: 'tee',
          sku_id: 'sku_red',
          quantity: 1,
          price: 3100,
          discount: 3100,
          discount_quantity: 1,
          added: 1,
          added_amount: 3100,
          details: [detail(1, 1, 3100)],
        }),
      ]),
    ),
  ],
  [
    'ADD_MISSING_ITEMS counts units across lines of the product, in order',
    {
      items: [
        { product_id: 'tee', price: 1000, quantity: 2 },
        { product_id: 'tee', sku_id: 'sku_red', price: 1200, quantity: 2 },
      ],
    },
    unit({ unit_off: 3, unit_type: 'tee' }),
    alone(
      'discount',
      0,
      [part(0, 2000, 2), part(1, 1200, 1)],
      order({ amount: 4400, total_amount: 1200 }, [
        item({ product_id: 'tee', quantity: 2, price: 1000, discount: 2000, discount_quantity: 2 }),
        item({ product_id: 'tee', sku_id: 'sku_red', quantity: 2, price: 1200, discount: 1200, discount_quantity: 1 }),
      ]),
    ),
  ],
];

describe('engine: UNIT discounts', () => {
  for (const [name, input, stack, expected] of cases) {
    it(name, () => assert.deepEqual(applyStack(input, stack), expected));
  }

  it('units whose value passes 2^53 - 1 are a problem, not an unsafe amount', () => {
    const huge = unit({ unit_off: 2, unit_type: 'gem', effect: 'ADD_NEW_ITEMS' }, { gem: 2 ** 52 });
    assert.deepEqual(applyStack(TEE, [...unit({ unit_off: 1, unit_type: 'tee' }), ...huge]), {
      ok: false,
      problems: [`stack[1]: 2 units of gem at ${2 ** 52} take the order's amount beyond ${Number.MAX_SAFE_INTEGER}`],
    });
  });
});
