import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pointsEarned, targetsOf, type EarningInput, type EarningLoyalty } from '../../src/engine/loyalty/points.js';

// An order of 123.45 (99.99 after discounts): 3 x SHOE (product p1, sku s1) at 30.00 and 1 x
// HAT (product p2, no sku) at 33.45, with metadata and a customer with metadata.
const ORDER: NonNullable<EarningInput['order']> = {
  amount: 12345,
  total_amount: 9999,
  metadata: { visits: 7, note: '12', negative: -4 },
  items: [
    { product_id: 'p1', sku_id: 's1', quantity: 3, amount: 9000, subtotal_amount: 8000 },
    { product_id: 'p2', sku_id: null, quantity: 1, amount: 3345, subtotal_amount: 3345 },
  ],
};
const INPUT: EarningInput = {
  order: ORDER,
  customerMetadata: { age: 41, tier: 'gold' },
  collections: new Map([
    ['pc_shoes', new Set(['s1'])],
    ['pc_hats', new Set(['p2'])],
    ['pc_empty', new Set<string>()],
  ]),
};

const fixed = (points: number): EarningLoyalty => ({ type: 'FIXED', points });
const proportional = (
  calculation_type: EarningLoyalty['calculation_type'],
  block: Partial<EarningLoyalty>,
): EarningLoyalty => ({
  type: 'PROPORTIONAL',
  calculation_type,
  ...block,
});
const perOrder = (key: 'amount' | 'total_amount', every: number, points: number) =>
  proportional(key === 'amount' ? 'ORDER_AMOUNT' : 'ORDER_TOTAL_AMOUNT', { order: { [key]: { every, points } } });
const items = (
  type: 'ORDER_ITEMS_QUANTITY' | 'ORDER_ITEMS_AMOUNT' | 'ORDER_ITEMS_SUBTOTAL_AMOUNT',
  ratio: Record<string, unknown>,
) => {
  const key = {
    ORDER_ITEMS_QUANTITY: 'quantity',
    ORDER_ITEMS_AMOUNT: 'amount',
    ORDER_ITEMS_SUBTOTAL_AMOUNT: 'subtotal_amount',
  }[type];
  return proportional(type, { order_items: { [key]: ratio } });
};

describe('pointsEarned: each calculation, whole steps only', () => {
  const cases: Array<[string, EarningLoyalty, EarningInput, number]> = [
    ['FIXED', fixed(5), INPUT, 5],
    ['FIXED without an order (tier events)', fixed(5), {}, 5],
    ['ORDER_AMOUNT 1 point per 1.00: 123.45 -> 123', perOrder('amount', 100, 1), INPUT, 123],
    ['ORDER_AMOUNT 2 points per 10.00: 123.45 -> 24', perOrder('amount', 1000, 2), INPUT, 24],
    ['ORDER_AMOUNT: a step larger than the order earns nothing', perOrder('amount', 20000, 50), INPUT, 0],
    ['ORDER_AMOUNT every 1 (per minor unit)', perOrder('amount', 1, 1), INPUT, 12345],
    ['ORDER_TOTAL_AMOUNT uses the amount after discounts: 99.99 -> 9', perOrder('total_amount', 1000, 1), INPUT, 9],
    ['ORDER_TOTAL_AMOUNT at an exact multiple', perOrder('total_amount', 3333, 1), INPUT, 3],
    [
      'ORDER_AMOUNT reads the order.amount block, not another',
      proportional('ORDER_AMOUNT', { order: { total_amount: { every: 100, points: 1 } } }),
      INPUT,
      0,
    ],
    [
      'ORDER_METADATA: 7 visits, 1 point per 2',
      proportional('ORDER_METADATA', { order: { metadata: { every: 2, points: 1, property: 'visits' } } }),
      INPUT,
      3,
    ],
    [
      'ORDER_METADATA: a text value earns nothing (no coercion)',
      proportional('ORDER_METADATA', { order: { metadata: { every: 1, points: 1, property: 'note' } } }),
      INPUT,
      0,
    ],
    [
      'ORDER_METADATA: a negative value earns nothing',
      proportional('ORDER_METADATA', { order: { metadata: { every: 1, points: 1, property: 'negative' } } }),
      INPUT,
      0,
    ],
    [
      'ORDER_METADATA: a missing property earns nothing',
      proportional('ORDER_METADATA', { order: { metadata: { every: 1, points: 1, property: 'nope' } } }),
      INPUT,
      0,
    ],
    [
      'CUSTOMER_METADATA: age 41, 5 points per 10',
      proportional('CUSTOMER_METADATA', { customer: { metadata: { every: 10, points: 5, property: 'age' } } }),
      INPUT,
      20,
    ],
    [
      'CUSTOMER_METADATA without a customer',
      proportional('CUSTOMER_METADATA', { customer: { metadata: { every: 10, points: 5, property: 'age' } } }),
      { order: ORDER },
      0,
    ],
    ['ORDER_ITEMS_QUANTITY, every item: 4 items', items('ORDER_ITEMS_QUANTITY', { every: 1, points: 2 }), INPUT, 8],
    [
      'ORDER_ITEMS_QUANTITY of product p1: 3 per 2 -> 1 step',
      items('ORDER_ITEMS_QUANTITY', { every: 2, points: 10, object: 'product', id: 'p1' }),
      INPUT,
      10,
    ],
    [
      'ORDER_ITEMS_QUANTITY of sku s1',
      items('ORDER_ITEMS_QUANTITY', { every: 1, points: 1, object: 'sku', id: 's1' }),
      INPUT,
      3,
    ],
    [
      'ORDER_ITEMS_QUANTITY of an absent sku',
      items('ORDER_ITEMS_QUANTITY', { every: 1, points: 1, object: 'sku', id: 's9' }),
      INPUT,
      0,
    ],
    [
      'ORDER_ITEMS_AMOUNT of every item: 123.45 per 1.00',
      items('ORDER_ITEMS_AMOUNT', { every: 100, points: 1 }),
      INPUT,
      123,
    ],
    [
      'ORDER_ITEMS_AMOUNT of collection pc_shoes (holds the SKU)',
      items('ORDER_ITEMS_AMOUNT', { every: 1000, points: 1, object: 'products_collection', id: 'pc_shoes' }),
      INPUT,
      9,
    ],
    [
      'ORDER_ITEMS_AMOUNT of collection pc_hats (holds the product)',
      items('ORDER_ITEMS_AMOUNT', { every: 1000, points: 1, object: 'products_collection', id: 'pc_hats' }),
      INPUT,
      3,
    ],
    [
      'ORDER_ITEMS_AMOUNT of an empty collection',
      items('ORDER_ITEMS_AMOUNT', { every: 1, points: 1, object: 'products_collection', id: 'pc_empty' }),
      INPUT,
      0,
    ],
    [
      'ORDER_ITEMS_AMOUNT of an unknown collection',
      items('ORDER_ITEMS_AMOUNT', { every: 1, points: 1, object: 'products_collection', id: 'pc_gone' }),
      INPUT,
      0,
    ],
    [
      'ORDER_ITEMS_AMOUNT of applicable_to (either target), which wins over object/id',
      items('ORDER_ITEMS_AMOUNT', {
        every: 100,
        points: 1,
        object: 'sku',
        id: 's9',
        applicable_to: [
          { object: 'product', id: 'p2' },
          { object: 'sku', id: 's1' },
        ],
      }),
      INPUT,
      123,
    ],
    [
      'ORDER_ITEMS_SUBTOTAL_AMOUNT of product p1: 80.00 per 10.00',
      items('ORDER_ITEMS_SUBTOTAL_AMOUNT', { every: 1000, points: 1, object: 'product', id: 'p1' }),
      INPUT,
      8,
    ],
    [
      'CUSTOM_EVENT_METADATA never earns on an order',
      proportional('CUSTOM_EVENT_METADATA', {
        custom_event: { metadata: { every: 1, points: 1, property: 'visits' } },
      }),
      INPUT,
      0,
    ],
    [
      "CUSTOM_EVENT_METADATA: the event's 7 pages, 2 points per 3",
      proportional('CUSTOM_EVENT_METADATA', { custom_event: { metadata: { every: 3, points: 2, property: 'pages' } } }),
      { customEventMetadata: { pages: 7 } },
      4,
    ],
    [
      'CUSTOM_EVENT_METADATA: a text value earns nothing',
      proportional('CUSTOM_EVENT_METADATA', { custom_event: { metadata: { every: 1, points: 1, property: 'pages' } } }),
      { customEventMetadata: { pages: '7' } },
      0,
    ],
    [
      'CUSTOM_EVENT_METADATA reads the event, not the order',
      proportional('CUSTOM_EVENT_METADATA', {
        custom_event: { metadata: { every: 1, points: 1, property: 'visits' } },
      }),
      { ...INPUT, customEventMetadata: { pages: 7 } },
      0,
    ],
    ['PROPORTIONAL without its block earns nothing', proportional('ORDER_AMOUNT', {}), INPUT, 0],
  ];
  for (const [name, loyalty, input, expected] of cases) {
    it(`${name} -> ${expected}`, () => assert.equal(pointsEarned(loyalty, input), expected));
  }
});

describe('pointsEarned: tier mappings', () => {
  const cases: Array<[string, EarningLoyalty, EarningInput['tier'], number]> = [
    ['MULTIPLY 2 on FIXED 5', fixed(5), { type: 'MULTIPLY', multiplier: 2 }, 10],
    ['MULTIPLY 1.5 on FIXED 5 rounds down', fixed(5), { type: 'MULTIPLY', multiplier: 1.5 }, 7],
    [
      'MULTIPLY 1.15 on FIXED 100 is 115 (no binary-float loss)',
      fixed(100),
      { type: 'MULTIPLY', multiplier: 1.15 },
      115,
    ],
    ['MULTIPLY 0.5 on 123 proportional points', perOrder('amount', 100, 1), { type: 'MULTIPLY', multiplier: 0.5 }, 61],
    ['CUSTOM replaces FIXED points', fixed(5), { type: 'CUSTOM', points: 42 }, 42],
    [
      'CUSTOM replaces the points per step of a PROPORTIONAL rule',
      perOrder('amount', 1000, 1),
      { type: 'CUSTOM', points: 3 },
      36,
    ],
    ['no mapping', fixed(5), null, 5],
  ];
  for (const [name, loyalty, tier, expected] of cases) {
    it(`${name} -> ${expected}`, () => assert.equal(pointsEarned(loyalty, { ...INPUT, tier }), expected));
  }
});

describe('targetsOf', () => {
  it('prefers applicable_to, then object and id, else none', () => {
    assert.deepEqual(targetsOf({ applicable_to: [{ object: 'sku', id: 's1' }], object: 'product', id: 'p1' }), [
      { object: 'sku', id: 's1' },
    ]);
    assert.deepEqual(targetsOf({ applicable_to: [], object: 'product', id: 'p1' }), [{ object: 'product', id: 'p1' }]);
    assert.deepEqual(targetsOf({ object: 'product' }), []);
  });
});
