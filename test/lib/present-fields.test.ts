import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { array, number, object, string, ValidationError, type ISchema, type Schema } from 'yup';
import { presentFieldsSchema } from '../../src/lib/present-fields.js';
import { createOrderSchema } from '../../src/modules/orders/orders.schemas.js';
import { stackableBodySchema } from '../../src/modules/redemptions/pipeline/redemptions.schemas.js';
import { importItemSchema } from '../../src/modules/vouchers/vouchers.schemas.js';

/** What a strict validation answers: the value, or every message in order. */
function outcome(schema: ISchema<unknown>, value: unknown): unknown {
  try {
    return { value: (schema as Schema<unknown>).validateSync(value, { strict: true, abortEarly: false }) };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { errors: error.errors };
  }
}

const sameAnswers = (schema: ISchema<unknown>, values: unknown[]) => {
  const fast = presentFieldsSchema(schema);
  for (const value of values) assert.deepEqual(outcome(fast, value), outcome(schema, value), JSON.stringify(value));
};

const item = { source_id: 'p-1', related_object: 'product', quantity: 2 };
const order = {
  source_id: 'o-1',
  status: 'PAID',
  created_at: '2024-01-01T00:00:00.000Z',
  customer: { source_id: 'c-1', name: 'Ann' },
  items: [item],
};

const orders: unknown[] = [
  order,
  {},
  {
    ...order,
    referrer: { source_id: 'r-1', email: 'r@example.com', address: { city: 'Oslo' } },
    metadata: { a: { b: 1 } },
  },
  {
    ...order,
    items: [
      {
        sku_id: 'sku_1',
        product: { source_id: 'p', override: true, name: 'P', price: 100 },
        sku: { source_id: 's', sku: 'S', price: 5 },
      },
    ],
  },
  {
    ...order,
    amount: 1000,
    discount_amount: 10,
    initial_amount: 1200,
    referrer_id: null,
    id: null,
    metadata: null,
    items: null,
    customer: null,
  },
  // Every kind of problem, several at once, so the order of the messages counts too.
  { ...order, status: 'LOST', created_at: 'yesterday', amount: -1, discount_amount: 'x', source_id: '' },
  {
    ...order,
    items: [
      { ...item, quantity: '2', related_object: 'thing' },
      null,
      'x',
      { price: 1.5, product: 'p', sku: { price: -1, override: 'yes' } },
    ],
  },
  { ...order, items: 'many' },
  { ...order, items: Array.from({ length: 600 }, () => item) },
  {
    ...order,
    customer: {
      source_id: 'c',
      email: 'not-an-email',
      birthdate: '2024-02-30',
      address: { city: 'Oslo', planet: 'Mars' },
    },
  },
  { ...order, customer: { birthdate: '2000-01-01', birthday: '2000-01-02', metadata: [] }, referrer: 'r' },
  {
    ...order,
    metadata: { deep: { deeper: { deepest: { more: { and: { more: { still: { more: { end: 1 } } } } } } } } },
  },
  { ...order, customer: { source_id: undefined, name: undefined }, items: [{ ...item, metadata: undefined }] },
  { ...order, unknown_field: 1, customer: { ...order.customer, object: 'customer', summary: {} } },
  null,
  'order',
  [order],
  42,
];

describe('present-fields schemas', () => {
  it('answer every order import item as the whole schema does: the value, or the same messages in the same order', () => {
    sameAnswers(createOrderSchema as ISchema<unknown>, orders);
  });

  it("answer every voucher import item as the whole schema does, whatever the campaign's vouchers", () => {
    const vouchers: unknown[] = [
      { code: 'A-1' },
      {},
      {
        code: '',
        type: 'GIFT_VOUCHER',
        active: 'yes',
        redemption: { quantity: -1 },
        start_date: 'soon',
        validity_day_of_week: [9],
      },
      {
        code: 'A-2',
        discount: { type: 'PERCENT', percent_off: 10 },
        gift: { amount: 500 },
        loyalty_card: { points: 10 },
      },
      { code: 'A-3', discount: { type: 'AMOUNT', amount_off: 'x' }, metadata: [], category: 7, additional_info: null },
      {
        code: 'A-4',
        type: 'LOYALTY_CARD',
        loyalty_card: { points: -5 },
        expiration_date: '2020-01-01T00:00:00.000Z',
        start_date: '2021-01-01T00:00:00.000Z',
      },
      { code: 'A-5', validity_timeframe: { interval: 'P1D', duration: 'PT1H' }, validity_hours: {}, unknown: true },
      null,
      'A-6',
    ];
    for (const type of ['DISCOUNT_VOUCHER', 'GIFT_VOUCHER', 'LOYALTY_CARD'] as const)
      sameAnswers(importItemSchema(type) as ISchema<unknown>, vouchers);
  });

  it('answer every validation and redemption body as the whole schema does (the routes check only present fields)', () => {
    const voucher = { object: 'voucher', id: 'V-1' };
    sameAnswers(stackableBodySchema as ISchema<unknown>, [
      { redeemables: [voucher], order: { items: [{ product_id: null, quantity: 1, price: 500 }] } },
      {
        redeemables: [voucher, { object: 'voucher', id: 'G-1', gift: { credits: 30 } }],
        customer: { source_id: 'c' },
        order: { source_id: 'o' },
      },
      {},
      { redeemables: [] },
      { redeemables: Array.from({ length: 31 }, () => voucher) },
      {
        redeemables: [{ object: 'coupon' }, null, 'x', { id: '', gift: { credits: 0 }, reward: { points: 1.5 } }],
        order: [],
        customer: 'c',
      },
      {
        redeemables: [voucher],
        session: { type: 'KEY', ttl: 'x' },
        options: { expand: ['order', 'nothing'] },
        metadata: [],
        tracking_id: 5,
      },
      {
        redeemables: [voucher],
        customer: { birthdate: '2000-01-01', birthday: '2000-01-02', email: 'nope' },
        order: orders[6],
      },
      { redeemables: [voucher], order: null, customer: null, unknown: true },
      { redeemables: [voucher], session: { ttl: 5 } },
      { redeemables: [voucher], session: { type: 'LOCK', key: 'k', ttl: 1, ttl_unit: 'HOURS' } },
      { redeemables: [voucher], session: { ttl: -1, ttl_unit: 'FORTNIGHTS', extra: 1 } },
      null,
      [voucher],
    ]);
  });

  it('keep a field that fails when absent, refuse unknown fields, and keep fields that depend on their siblings', () => {
    const schema = object({
      name: string().required('name is required'),
      kind: string().oneOf(['a', 'b']),
      size: number().when('kind', { is: 'a', then: (s) => s.required('size is required for a') }),
      tags: array(
        object({ label: string().required('label is required'), note: string() }).noUnknown(
          true,
          'unknown: ${unknown}',
        ),
      ),
    }).noUnknown(true, 'unknown: ${unknown}');
    sameAnswers(schema as ISchema<unknown>, [
      {},
      { name: 'x' },
      { kind: 'a' },
      { name: 'x', kind: 'a', size: 1 },
      { name: 'x', tags: [{}, { label: 'l', extra: 1 }, { note: 'n' }] },
      { name: 'x', other: 1 },
    ]);
    assert.deepEqual(outcome(presentFieldsSchema(schema as ISchema<unknown>), { kind: 'a' }), {
      errors: ['name is required', 'size is required for a'],
    });
  });
});
