import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkValidationRules, type RulesInput } from '../../../src/modules/validation-rules/index.js';
import { recordingDb } from '../../support/recording-db.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * The seam the redemption pipeline calls, against a real database: rules made and assigned
 * through the API, collections resolved by the catalog.
 */
describe('checkValidationRules', () => {
  let server: TestServer;
  const ids: Record<string, string> = {};
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await server.request(method, path, { body });
    assert.ok(res.status < 300, `${method} ${path}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const assign = async (ruleBody: unknown, target: unknown) => {
    const rule = await call('POST', '/v1/validation-rules', ruleBody);
    await call('POST', `/v1/validation-rules/${rule.id}/assignments`, target);
    return rule.id as string;
  };

  before(async () => {
    server = await startTestServer();
    ids.campaign = (
      await call('POST', '/v1/campaigns', {
        name: 'Shop',
        campaign_type: 'DISCOUNT_COUPONS',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
      })
    ).id;
    ids.voucher = (await call('POST', '/v1/vouchers/GOLD', { discount: { type: 'PERCENT', percent_off: 10 } })).id;
    ids.other = (await call('POST', '/v1/vouchers/PLAIN', { discount: { type: 'PERCENT', percent_off: 10 } })).id;
    ids.mug = (await call('POST', '/v1/products', { source_id: 'mug', name: 'Mug', price: 800 })).id;
    ids.cup = (await call('POST', '/v1/products', { source_id: 'cup', name: 'Cup', price: 500 })).id;
    ids.tee = (await call('POST', '/v1/products', { source_id: 'tee', name: 'Tee', price: 2000 })).id;
    ids.teeSku = (await call('POST', '/v1/products/tee/skus', { source_id: 'tee-s', sku: 'S', price: 2000 })).id;
    ids.kitchen = (
      await call('POST', '/v1/product-collections', {
        name: 'Kitchen',
        type: 'STATIC',
        products: [
          { id: 'mug', object: 'product' },
          { id: 'cup', object: 'product' },
        ],
      })
    ).id;
    ids.cheap = (
      await call('POST', '/v1/product-collections', {
        name: 'Cheap',
        type: 'AUTO_UPDATE',
        filter: { junction: 'and', price: { conditions: { $less_than: [600] } } },
      })
    ).id;
    ids.customerRule = await assign(
      {
        name: 'Gold members',
        rules: { '1': { name: 'customer.metadata', property: 'tier', conditions: { $is: ['gold'] } } },
      },
      { voucher: 'GOLD' },
    );
    ids.amountRule = await assign(
      {
        name: 'Spend 30',
        error: { message: 'Spend at least 30.00' },
        rules: { '1': { name: 'order.amount', conditions: { $more_than_or_equal: [3000] } } },
      },
      { campaign: ids.campaign },
    );
    ids.kitchenRule = await assign(
      {
        name: 'Kitchen only',
        rules: {
          '1': { name: 'order.items.any', conditions: { $is: [{ object: 'products_collection', id: ids.kitchen }] } },
        },
        applicable_to: {
          included: [{ object: 'products_collection', id: ids.kitchen, effect: 'APPLY_TO_EVERY', quantity_limit: 2 }],
          excluded: [{ object: 'products_collection', id: ids.cheap }],
        },
      },
      { campaign: ids.campaign },
    );
  });
  after(() => server.close());

  const order = (
    items: RulesInput['order'] extends infer O ? (O extends { items: infer I } ? I : never) : never,
    amount?: number,
  ): RulesInput['order'] => ({
    amount: amount ?? items.reduce((sum, i) => sum + (i.amount ?? 0), 0),
    metadata: {},
    items,
  });
  const line = (product_id: string, quantity: number, price: number, sku_id: string | null = null) => ({
    product_id,
    sku_id,
    quantity,
    price,
    amount: quantity * price,
  });
  const customer = (metadata: Record<string, unknown>) => ({ id: 'cust_1', source_id: 'c1', metadata });
  const emptyList = { data: [], total: 0, data_ref: 'data', object: 'list' };

  it('passes a subject with no rules, touching every item', async () => {
    const outcome = await checkValidationRules(server.deps.db, {
      subjects: [{ object: 'voucher', id: ids.other as string }],
      customer: null,
      order: null,
    });
    assert.deepEqual(outcome, { ok: true, items: null, applicable_to: emptyList, inapplicable_to: emptyList });
  });

  it('a customer rule: passes for gold, fails otherwise with the canonical message', async () => {
    const subjects = [{ object: 'voucher' as const, id: ids.voucher as string }];
    const pass = await checkValidationRules(server.deps.db, {
      subjects,
      customer: customer({ tier: 'gold' }),
      order: null,
    });
    assert.deepEqual(pass, { ok: true, items: null, applicable_to: emptyList, inapplicable_to: emptyList });
    for (const who of [customer({ tier: 'silver' }), null]) {
      const fail = await checkValidationRules(server.deps.db, { subjects, customer: who, order: null });
      assert.deepEqual(fail, {
        ok: false,
        code: 'customer_rules_violated',
        message: 'customer does not match validation rules',
        rule_id: ids.customerRule,
      });
    }
  });

  it('an order-amount rule of the campaign fails with its error.message', async () => {
    const subjects = [
      { object: 'voucher' as const, id: ids.voucher as string },
      { object: 'campaign' as const, id: ids.campaign as string },
    ];
    const outcome = await checkValidationRules(server.deps.db, {
      subjects,
      customer: customer({ tier: 'gold' }),
      order: order([line(ids.mug as string, 1, 800)]),
    });
    assert.deepEqual(outcome, {
      ok: false,
      code: 'order_rules_violated',
      message: 'Spend at least 30.00',
      rule_id: ids.amountRule,
    });
  });

  it('a product-collection rule with applicable_to: the kitchen items, at most 2 units each, less the cheap ones', async () => {
    const subjects = [{ object: 'campaign' as const, id: ids.campaign as string }];
    const items = [
      line(ids.tee as string, 1, 2000, ids.teeSku as string),
      line(ids.mug as string, 3, 800),
      line(ids.cup as string, 2, 500),
    ];
    const outcome = await checkValidationRules(server.deps.db, { subjects, customer: null, order: order(items) });
    assert.deepEqual(outcome, {
      ok: true,
      items: [{ index: 1, quantity_limit: 2 }],
      applicable_to: {
        data: [
          {
            object: 'products_collection',
            id: ids.kitchen,
            effect: 'APPLY_TO_EVERY',
            quantity_limit: 2,
            aggregated_quantity_limit: null,
            order_item_indices: [1, 2],
          },
        ],
        total: 1,
        data_ref: 'data',
        object: 'list',
      },
      inapplicable_to: {
        data: [
          {
            object: 'products_collection',
            id: ids.cheap,
            effect: 'APPLY_TO_EVERY',
            quantity_limit: null,
            aggregated_quantity_limit: null,
            order_item_indices: [2],
          },
        ],
        total: 1,
        data_ref: 'data',
        object: 'list',
      },
    });
    const noKitchen = await checkValidationRules(server.deps.db, {
      subjects,
      customer: null,
      order: order([line(ids.tee as string, 2, 2000)]),
    });
    assert.deepEqual(noKitchen, {
      ok: false,
      code: 'order_rules_violated',
      message: 'order does not match validation rules',
      rule_id: ids.kitchenRule,
    });
  });

  it('runs the same few statements whatever the number of items', async () => {
    const subjects = [{ object: 'campaign' as const, id: ids.campaign as string }];
    const statementsFor = async (n: number) => {
      const items = Array.from({ length: n }, (_, i) =>
        line(i % 2 ? (ids.mug as string) : (ids.cup as string), 1, 4000),
      );
      const ran: string[] = [];
      const db = recordingDb(server.deps, (query) => ran.push(query.sql));
      assert.equal((await checkValidationRules(db, { subjects, customer: null, order: order(items) })).ok, true);
      return ran.length;
    };
    const few = await statementsFor(3);
    assert.equal(few, 6); // assignments, rules, then per named collection (kitchen, cheap): its row and its members
    assert.equal(await statementsFor(300), few);
  });
});
