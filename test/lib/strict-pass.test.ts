import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ISchema, Schema } from 'yup';
import { passesStrict } from '../../src/lib/strict-pass.js';
import { WRONG } from '../support/schema-samples.js';
import { createCustomerSchema } from '../../src/modules/customers/customers.schemas.js';
import { createOrderSchema } from '../../src/modules/orders/orders.schemas.js';
import { stackableBodySchema } from '../../src/modules/redemptions/pipeline/redemptions.schemas.js';
import { importItemSchema } from '../../src/modules/vouchers/vouchers.schemas.js';

type AnySchema = ISchema<unknown>;

const yupPasses = (schema: AnySchema, value: unknown): boolean =>
  (schema as Schema<unknown>).isValidSync(value, { strict: true });

/** Every variant of `value` with one of its fields (at any depth) replaced, dropped or added to. */
function* mutations(value: unknown): Generator<unknown> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      for (const inner of [...WRONG, ...mutations(value[i])]) yield value.map((v, j) => (j === i ? inner : v));
    yield [...value, ...value];
    yield [];
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    for (const inner of [...WRONG, ...mutations(record[key])]) yield { ...record, [key]: inner };
    const { [key]: _dropped, ...rest } = record;
    yield rest;
  }
  yield { ...record, unknown_field: 1 };
}

/** passesStrict must answer exactly what yup answers, for the valid body and every mutation. */
function agrees(schema: AnySchema, valid: unknown): number {
  assert.equal(passesStrict(schema, valid), true, `valid: ${JSON.stringify(valid)}`);
  assert.equal(yupPasses(schema, valid), true);
  let count = 0;
  for (const value of mutations(valid)) {
    assert.equal(passesStrict(schema, value), yupPasses(schema, value), JSON.stringify(value));
    count++;
  }
  return count;
}

const item = { source_id: 'p-1', related_object: 'product', quantity: 2, price: 500, metadata: { a: 1 } };
const customer = {
  source_id: 'c-1',
  name: 'Ann',
  email: 'ann@example.com',
  birthdate: '1990-01-01',
  address: { city: 'Oslo' },
  metadata: { tier: 'gold' },
};
const order = {
  source_id: 'o-1',
  status: 'PAID',
  amount: 1000,
  created_at: '2024-01-01T00:00:00.000Z',
  customer,
  items: [item, { sku_id: 'sku_1', quantity: 1 }],
};

describe('passesStrict', () => {
  it('answers as yup does for a validation or redemption body and every way of getting one of its fields wrong', () => {
    const body = {
      redeemables: [
        { object: 'voucher', id: 'V-1' },
        { object: 'voucher', id: 'G-1', gift: { credits: 30 } },
        { object: 'promotion_tier', id: 'promo_1' },
      ],
      order: { items: [{ product_id: null, quantity: 1, price: 500 }, item] },
      customer,
      session: { type: 'LOCK', key: 's', ttl: 1, ttl_unit: 'HOURS' },
      options: { expand: ['order'] },
      metadata: { a: 1 },
      tracking_id: 't',
    };
    const count = agrees(stackableBodySchema as AnySchema, body);
    assert.ok(count > 500, `${count} variants`);
  });

  it('answers as yup does for orders, customers and voucher import items', () => {
    agrees(createOrderSchema as AnySchema, order);
    agrees(createCustomerSchema as AnySchema, customer);
    agrees(importItemSchema('DISCOUNT_VOUCHER') as AnySchema, {
      code: 'A-1',
      discount: { type: 'PERCENT', percent_off: 10 },
      metadata: {},
      start_date: '2024-01-01T00:00:00.000Z',
    });
    agrees(importItemSchema('GIFT_VOUCHER') as AnySchema, {
      code: 'G-1',
      gift: { amount: 500, balance: 500 },
      active: true,
    });
  });

  it("can take an absent field's answer once per schema: no schema test reads its siblings or ancestors", () => {
    const src = join(import.meta.dirname, '../../src');
    const code = (file: string) =>
      readFileSync(join(src, file), 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
        .join('\n');
    const readers = (readdirSync(src, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && file !== join('lib', 'strict-pass.ts'))
      .filter((file) => /this\.(parent|from)\b/.test(code(file)));
    assert.deepEqual(readers, []);
  });
});
