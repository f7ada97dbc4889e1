import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applicableItems,
  evaluateRule,
  intersectItems,
  parseApplicable,
  parseLogic,
  parseRules,
  type RuleContext,
  type RuleItem,
  type RuleSpec,
} from '../../src/engine/rules/index.js';

const NOW = new Date('2024-05-01T12:00:00.000Z');

const item = (fields: Partial<RuleItem>): RuleItem => ({
  product_id: null,
  sku_id: null,
  collection_ids: [],
  quantity: 1,
  price: null,
  amount: null,
  ...fields,
});

const context = (fields: Partial<RuleContext> = {}): RuleContext => ({
  customer: { metadata: { tier: 'gold', age: 30 } },
  order: {
    amount: 5000,
    metadata: { location: 'Santorini' },
    items: [
      item({ product_id: 'prod_a', quantity: 2, price: 1000, amount: 2000 }),
      item({
        product_id: 'prod_b',
        sku_id: 'sku_b1',
        collection_ids: ['pc_x'],
        quantity: 3,
        price: 1000,
        amount: 3000,
      }),
    ],
  },
  customerRedemptions: 0,
  ...fields,
});

function rule(rules: unknown, extra: { message?: string | null; applicable?: unknown } = {}): RuleSpec {
  const parsed = parseRules(rules);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  const errors: string[] = [];
  const applicable = parseApplicable(extra.applicable, errors);
  assert.deepEqual(errors, []);
  return { id: 'val_test', tree: parsed.tree, message: extra.message ?? null, applicable };
}

const one = (name: string, conditions: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  '1': { name, conditions, ...more },
  logic: '1',
});
const PASS = { ok: true };
const CUSTOMER = { ok: false, code: 'customer_rules_violated', message: 'customer does not match validation rules' };
const ORDER = { ok: false, code: 'order_rules_violated', message: 'order does not match validation rules' };

describe('validation rules: conditions', () => {
  const cases: Array<[string, unknown, RuleContext, unknown]> = [
    ['customer metadata passes', one('customer.metadata', { $is: ['gold'] }, { property: 'tier' }), context(), PASS],
    [
      'customer metadata fails',
      one('customer.metadata', { $is: ['silver'] }, { property: 'tier' }),
      context(),
      CUSTOMER,
    ],
    [
      'customer metadata number compare',
      one('customer.metadata', { $more_than_or_equal: [30] }, { property: 'age' }),
      context(),
      PASS,
    ],
    [
      'no customer fails a customer rule',
      one('customer.metadata', { $is: ['gold'] }, { property: 'tier' }),
      context({ customer: null }),
      CUSTOMER,
    ],
    ['order amount above', one('order.amount', { $more_than: [4999] }), context(), PASS],
    ['order amount below fails', one('order.amount', { $more_than: [5000] }), context(), ORDER],
    ['no order fails an order rule', one('order.amount', { $less_than: [10000] }), context({ order: null }), ORDER],
    ['order items count', one('order.items.count', { $is: [2] }), context(), PASS],
    ['order metadata', one('order.metadata', { $is: ['Santorini'] }, { property: 'location' }), context(), PASS],
    [
      'order metadata missing key fails',
      one('order.metadata', { $has_value: [] }, { property: 'shop' }),
      context(),
      ORDER,
    ],
    ['price of any item', one('order.items.price_any', { $is: [1000] }), context(), PASS],
    ['price of each item fails', one('order.items.price_each', { $more_than: [1000] }), context(), ORDER],
    [
      'a member of the segment',
      one('customer.segment', { $is: ['seg_1'] }),
      context({ customer: { metadata: {}, segments: ['seg_0', 'seg_1'] } }),
      PASS,
    ],
    [
      'not a member of the segment',
      one('customer.segment', { $is: ['seg_1'] }),
      context({ customer: { metadata: {}, segments: ['seg_0'] } }),
      CUSTOMER,
    ],
    [
      'in none of the segments ($not_in)',
      one('customer.segment', { $not_in: ['seg_1', 'seg_2'] }),
      context({ customer: { metadata: {}, segments: ['seg_2'] } }),
      CUSTOMER,
    ],
    [
      'no customer is in no segment',
      one('customer.segment', { $in: ['seg_1'] }),
      context({ customer: null }),
      CUSTOMER,
    ],
    [
      'per-customer redemptions under the limit',
      one('redemption.count.per_customer', { $less_than: [3] }),
      context({ customerRedemptions: 2 }),
      PASS,
    ],
    [
      'per-customer redemptions at the limit',
      one('redemption.count.per_customer', { $less_than: [3] }),
      context({ customerRedemptions: 3 }),
      CUSTOMER,
    ],
    [
      'every product present',
      one('order.items.every', {
        $is: [
          { object: 'product', id: 'prod_a' },
          { object: 'sku', id: 'sku_b1' },
        ],
      }),
      context(),
      PASS,
    ],
    [
      'every product: one missing',
      one('order.items.every', {
        $is: [
          { object: 'product', id: 'prod_a' },
          { object: 'product', id: 'prod_z' },
        ],
      }),
      context(),
      ORDER,
    ],
    [
      'any of a collection',
      one('order.items.any', { $in: [{ object: 'products_collection', id: 'pc_x' }] }),
      context(),
      PASS,
    ],
    ['none of a product', one('order.items.none', { $is: [{ object: 'product', id: 'prod_a' }] }), context(), ORDER],
    [
      'item condition with a nested quantity rule',
      one(
        'order.items.any',
        { $is: [{ object: 'product', id: 'prod_b' }] },
        { rules: { '1': { name: 'order.items.quantity', conditions: { $more_than_equal: [3] } }, logic: '1' } },
      ),
      context(),
      PASS,
    ],
    [
      'nested rule failing',
      one(
        'order.items.any',
        { $is: [{ object: 'product', id: 'prod_a' }] },
        { rules: { '1': { name: 'order.items.quantity', conditions: { $more_than_equal: [3] } } } },
      ),
      context(),
      ORDER,
    ],
    [
      'or logic: second holds',
      {
        '1': { name: 'order.amount', conditions: { $less_than: [100] } },
        '2': { name: 'order.items.count', conditions: { $is: [2] } },
        logic: '1 or 2',
      },
      context(),
      PASS,
    ],
    [
      'and logic: first failing condition decides the code',
      {
        '1': { name: 'order.amount', conditions: { $more_than: [1] } },
        '2': { name: 'customer.metadata', property: 'tier', conditions: { $is: ['x'] } },
        logic: '(1 and 2)',
      },
      context(),
      CUSTOMER,
    ],
    [
      "a condition's own message",
      one('order.amount', { $more_than: [9000] }, { error: { message: 'Spend 90 or more' } }),
      context(),
      { ...ORDER, message: 'Spend 90 or more' },
    ],
    ['no conditions always pass', { logic: '' }, context(), PASS],
  ];
  for (const [name, rules, ctx, expected] of cases) {
    it(name, () => assert.deepEqual(evaluateRule(rule(rules), ctx, NOW), expected));
  }

  it("the rule's error.message replaces the failure message", () => {
    assert.deepEqual(
      evaluateRule(rule(one('order.amount', { $more_than: [9000] }), { message: 'Not this time' }), context(), NOW),
      { ...ORDER, message: 'Not this time' },
    );
  });
});

describe('validation rules: refusals', () => {
  const refusals: Array<[string, unknown, string]> = [
    [
      'unknown name',
      one('product.id', { $is: ['prod_1'] }),
      'rules.1.name "product.id" is not supported; supported: customer.metadata, customer.segment, redemption.count.per_customer, order.amount, order.metadata, order.items.count, order.items.price_any, order.items.price_each, customer_segment, order.items.every, order.items.any, order.items.none',
    ],
    [
      'metadata without property',
      one('order.metadata', { $is: ['x'] }),
      'rules.1.property is required for order.metadata: the metadata key, at most 255 characters',
    ],
    [
      'bad operand',
      one('order.amount', { $more_than: ['x'] }),
      'rules.1.order.amount.conditions.$more_than must be an array of exactly one number',
    ],
    [
      'logic naming a missing condition',
      { ...one('order.amount', { $more_than: [1] }), logic: '1 and 2' },
      'rules.logic names condition 2, which the rules do not define',
    ],
    [
      'unbalanced logic',
      { ...one('order.amount', { $more_than: [1] }), logic: '(1' },
      'rules.logic has an unclosed parenthesis',
    ],
    ['bad key', { a: {}, logic: '' }, 'rules takes only numbered conditions ("1", "2", ...) and "logic", not: a'],
    [
      'nested rules on a plain condition',
      one('order.amount', { $more_than: [1] }, { rules: { '1': { name: 'order.amount', conditions: { $is: [1] } } } }),
      'rules.1.rules must be empty: only order.items.every, any and none take nested rules',
    ],
    [
      'item target without id',
      one('order.items.any', { $is: [{ object: 'product' }] }),
      'rules.1.conditions.$is.0 must be {"object": "product" | "sku" | "products_collection", "id": <non-empty id>}',
    ],
    [
      'item nested rule of the wrong name',
      one(
        'order.items.any',
        { $is: [{ object: 'product', id: 'p' }] },
        { rules: { '1': { name: 'order.amount', conditions: { $is: [1] } } } },
      ),
      'rules.1.rules.1.name "order.amount" is not supported inside an item condition; supported: order.items.quantity, order.items.price, order.items.amount',
    ],
  ];
  for (const [name, rules, message] of refusals) {
    it(name, () => assert.deepEqual(parseRules(rules), { ok: false, errors: [message] }));
  }

  it('answers the tree with property and rules on every condition, and the logic', () => {
    const parsed = parseRules({
      '2': { name: 'order.amount', conditions: { $more_than_or_equal: [5] } },
      '1': { name: 'order.metadata', property: 'x', conditions: { $is: ['y'] } },
    });
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.json, {
      '1': { name: 'order.metadata', property: 'x', conditions: { $is: ['y'] }, rules: {} },
      '2': { name: 'order.amount', property: null, conditions: { $more_than_or_equal: [5] }, rules: {} },
      logic: '1 and 2',
    });
  });

  it('parses logic with and binding tighter than or', () => {
    assert.deepEqual(parseLogic('1 OR 2 and 3', ['1', '2', '3']), {
      op: 'or',
      parts: [
        { op: 'ref', key: '1' },
        {
          op: 'and',
          parts: [
            { op: 'ref', key: '2' },
            { op: 'ref', key: '3' },
          ],
        },
      ],
    });
    assert.equal(parseLogic('1 2', ['1', '2']), 'has "2" after a complete expression');
  });
});

describe('validation rules: applicable_to', () => {
  const items = [
    item({ product_id: 'prod_a', quantity: 2, price: 500 }),
    item({ product_id: 'prod_b', sku_id: 'sku_b1', collection_ids: ['pc_x'], quantity: 3, price: 300 }),
    item({ product_id: 'prod_c', collection_ids: ['pc_x'], quantity: 1, price: 900 }),
  ];
  const applicable = (value: unknown) => {
    const errors: string[] = [];
    const parsed = parseApplicable(value, errors);
    assert.deepEqual(errors, []);
    return applicableItems(parsed, items);
  };
  const cases: Array<[string, unknown, unknown]> = [
    ['absent: every item', undefined, null],
    ['included_all with nothing excluded: every item', { included_all: true, included: [], excluded: [] }, null],
    [
      'included_all less an excluded product',
      { included_all: true, excluded: [{ object: 'product', id: 'prod_a' }] },
      [
        { index: 1, quantity_limit: null },
        { index: 2, quantity_limit: null },
      ],
    ],
    [
      'a collection, every unit',
      { included: [{ object: 'products_collection', id: 'pc_x', effect: 'APPLY_TO_EVERY' }] },
      [
        { index: 1, quantity_limit: null },
        { index: 2, quantity_limit: null },
      ],
    ],
    [
      'a collection with a quantity limit per item',
      { included: [{ object: 'products_collection', id: 'pc_x', quantity_limit: 1 }] },
      [
        { index: 1, quantity_limit: 1 },
        { index: 2, quantity_limit: 1 },
      ],
    ],
    [
      'an aggregated quantity limit',
      { included: [{ object: 'products_collection', id: 'pc_x', aggregated_quantity_limit: 2 }] },
      [{ index: 1, quantity_limit: 2 }],
    ],
    [
      'the cheapest of a collection',
      { included: [{ object: 'products_collection', id: 'pc_x', effect: 'APPLY_TO_CHEAPEST' }] },
      [{ index: 1, quantity_limit: 1 }],
    ],
    [
      'the most expensive of a collection',
      { included: [{ object: 'products_collection', id: 'pc_x', effect: 'APPLY_TO_MOST_EXPENSIVE' }] },
      [{ index: 2, quantity_limit: 1 }],
    ],
    [
      'from the most expensive, three units',
      {
        included: [
          {
            object: 'products_collection',
            id: 'pc_x',
            effect: 'APPLY_FROM_MOST_EXPENSIVE',
            aggregated_quantity_limit: 3,
          },
        ],
      },
      [
        { index: 1, quantity_limit: 2 },
        { index: 2, quantity_limit: 1 },
      ],
    ],
    [
      'a SKU, less the excluded collection',
      { included: [{ object: 'sku', id: 'sku_b1' }], excluded: [{ object: 'products_collection', id: 'pc_x' }] },
      [],
    ],
    ['included with nothing matching: no item', { included: [{ object: 'product', id: 'prod_z' }] }, []],
  ];
  for (const [name, value, expected] of cases) it(name, () => assert.deepEqual(applicable(value), expected));

  it('refuses a bad effect and limit', () => {
    const errors: string[] = [];
    parseApplicable(
      { included: [{ object: 'product', id: 'p', effect: 'APPLY_TO_ALL', quantity_limit: 0 }], included_all: 'yes' },
      errors,
    );
    assert.deepEqual(errors, [
      'applicable_to.included_all must be a boolean',
      'applicable_to.included.0.effect must be one of: APPLY_TO_EVERY, APPLY_TO_CHEAPEST, APPLY_FROM_CHEAPEST, APPLY_TO_MOST_EXPENSIVE, APPLY_FROM_MOST_EXPENSIVE',
      'applicable_to.included.0.quantity_limit must be a whole number of at least 1, or null',
    ]);
  });

  it('intersects the items of several rules with the tightest limit', () => {
    assert.equal(intersectItems(null, null), null);
    assert.deepEqual(intersectItems(null, [{ index: 1, quantity_limit: 2 }]), [{ index: 1, quantity_limit: 2 }]);
    assert.deepEqual(
      intersectItems(
        [
          { index: 0, quantity_limit: null },
          { index: 1, quantity_limit: 5 },
        ],
        [
          { index: 1, quantity_limit: 2 },
          { index: 2, quantity_limit: null },
        ],
      ),
      [{ index: 1, quantity_limit: 2 }],
    );
  });
});
