import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorBody, startTestServer, type TestServer } from '../../support/server.js';
import { makeVoucher, percentVoucher } from './fixtures.js';

/**
 * The redemption pipeline with what other modules decide: validation rules (failures with
 * their codes and messages, applicable_to limiting the items, per-customer limits), the
 * project's stacking rules (PARTIAL mode, the no-effect rule) and promotion stacks.
 */
describe('redemptions under validation rules, stacking rules and promotion stacks', () => {
  let server: TestServer;
  const ids: Record<string, string> = {};
  before(async () => {
    server = await startTestServer();
    const post = async (path: string, body: unknown) => {
      const res = await server.request('POST', path, { body });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      return res.body;
    };
    for (const [sourceId, price] of [
      ['mug', 500],
      ['tee', 200],
      ['cap', 300],
    ] as const) {
      ids[sourceId] = (await post('/v1/products', { source_id: sourceId, name: sourceId, price })).id;
    }
    ids.mugs = (
      await post('/v1/product-collections', {
        type: 'STATIC',
        name: 'Mugs',
        products: [{ id: ids.mug, object: 'product' }],
      })
    ).id;
  });
  after(() => server.close());

  const order = () => ({
    items: [
      { source_id: 'mug', related_object: 'product', quantity: 1, price: 500 },
      { source_id: 'tee', related_object: 'product', quantity: 2, price: 200 },
    ],
  });
  const rule = async (body: Record<string, unknown>) =>
    (await server.request('POST', '/v1/validation-rules', { body })).body.id as string;
  const redeem = (redeemables: unknown[], customer = 'rules-buyer') =>
    server.request('POST', '/v1/redemptions', {
      body: { customer: { source_id: customer, metadata: { tier: 'silver' } }, order: order(), redeemables },
    });

  it('discounts only the items a rule makes applicable (a product collection)', async () => {
    const mugsOnly = await rule({
      name: 'Mugs only',
      rules: {},
      applicable_to: { included: [{ object: 'products_collection', id: ids.mugs }], excluded: [], included_all: false },
    });
    await percentVoucher(server, 'MUG-10', {
      discount: { type: 'PERCENT', percent_off: 10, effect: 'APPLY_TO_ITEMS' },
      validation_rules: [mugsOnly],
    });
    const res = await redeem([{ object: 'voucher', id: 'MUG-10' }]);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.order.items.map((i: Record<string, unknown>) => [i.product_id, i.discount_amount]),
      [
        [ids.mug, 50],
        [ids.tee, 0],
      ],
    );
    assert.equal(res.body.order.total_amount, 850);
  });

  it("refuses with the rule's failure code and its own error message, as a stored failed redemption", async () => {
    const gold = await rule({
      name: 'Gold',
      rules: { '1': { name: 'customer.metadata', property: 'tier', conditions: { $is: ['gold'] } }, logic: '1' },
      error: { message: 'Gold members only' },
    });
    const big = await rule({
      name: 'Big orders',
      rules: { '1': { name: 'order.amount', conditions: { $more_than: [100000] } }, logic: '1' },
    });
    await percentVoucher(server, 'GOLD-10', { validation_rules: [gold] });
    await percentVoucher(server, 'BIG-10', { validation_rules: [big] });
    const customer = await redeem([{ object: 'voucher', id: 'GOLD-10' }]);
    assert.equal(customer.status, 400);
    assert.match(customer.body.resource_id, /^rf_/);
    assert.deepEqual(
      customer.body,
      errorBody(customer, {
        code: 400,
        key: 'customer_rules_violated',
        message: 'customer does not match validation rules',
        details: 'voucher GOLD-10: Gold members only',
        resource_id: customer.body.resource_id,
        resource_type: 'redemption',
      }),
    );
    const stored = (await server.request('GET', `/v1/redemptions/${customer.body.resource_id}`)).body;
    assert.deepEqual(
      [stored.result, stored.status, stored.failure_code, stored.failure_message],
      ['FAILURE', 'FAILED', 'customer_rules_violated', 'Gold members only'],
    );
    const orderRule = await redeem([{ object: 'voucher', id: 'BIG-10' }]);
    assert.deepEqual(
      [orderRule.status, orderRule.body.key, orderRule.body.details],
      [400, 'order_rules_violated', 'voucher BIG-10: order does not match validation rules'],
    );
  });

  it('enforces a per-customer redemption limit', async () => {
    const once = await rule({
      name: 'Once each',
      rules: { '1': { name: 'redemption.count.per_customer', conditions: { $less_than: [1] } }, logic: '1' },
    });
    await percentVoucher(server, 'ONCE-EACH', { validation_rules: [once] });
    assert.equal((await redeem([{ object: 'voucher', id: 'ONCE-EACH' }], 'limit-a')).status, 200);
    const again = await redeem([{ object: 'voucher', id: 'ONCE-EACH' }], 'limit-a');
    assert.deepEqual([again.status, again.body.key], [400, 'customer_rules_violated']);
    assert.equal((await redeem([{ object: 'voucher', id: 'ONCE-EACH' }], 'limit-b')).status, 200);
  });

  it('applies the project stacking rules: PARTIAL lets the rest apply, SKIP skips what changes nothing', async () => {
    await percentVoucher(server, 'PARTIAL-10');
    await makeVoucher(server, 'EXPIRED-10', {
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'PERCENT', percent_off: 10 },
      expiration_date: '2020-01-01T00:00:00.000Z',
    });
    // The order's total is already below the fixed amount: the discount changes nothing.
    await makeVoucher(server, 'FIXED-HIGH', {
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'FIXED', fixed_amount: 100000 },
    });
    const set = await server.request('PUT', '/v1/stacking-rules', {
      body: { redeemables_application_mode: 'PARTIAL', redeemables_no_effect_rule: 'SKIP' },
    });
    assert.equal(set.status, 200, set.text);
    try {
      const res = await redeem([
        { object: 'voucher', id: 'EXPIRED-10' },
        { object: 'voucher', id: 'PARTIAL-10' },
        { object: 'voucher', id: 'FIXED-HIGH' },
      ]);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.redemptions.map((r: { voucher: { code: string } }) => r.voucher.code),
        ['PARTIAL-10'],
      );
      assert.deepEqual(
        res.body.inapplicable_redeemables.map((r: { id: string; result: { error: { key: string } } }) => [
          r.id,
          r.result.error.key,
        ]),
        [['EXPIRED-10', 'voucher_expired']],
      );
      assert.deepEqual(
        res.body.skipped_redeemables.map((r: { id: string; result: { details: { key: string } } }) => [
          r.id,
          r.result.details.key,
        ]),
        [['FIXED-HIGH', 'no_effect']],
      );
    } finally {
      await server.request('PUT', '/v1/stacking-rules', {
        body: { redeemables_application_mode: 'ALL', redeemables_no_effect_rule: 'REDEEM_ANYWAY' },
      });
    }
  });

  it('adds the unit a UNIT discount gives at its catalog price, and takes that price off', async () => {
    await makeVoucher(server, 'FREE-CAP', {
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'UNIT', unit_off: 1, unit_type: ids.cap, effect: 'ADD_NEW_ITEMS' },
    });
    const res = await redeem([{ object: 'voucher', id: 'FREE-CAP' }]);
    assert.equal(res.status, 200, res.text);
    const { amount, discount_amount, items_discount_amount, total_amount, items } = res.body.order;
    assert.deepEqual(
      { amount, discount_amount, items_discount_amount, total_amount },
      { amount: 1200, discount_amount: 0, items_discount_amount: 300, total_amount: 900 },
    );
    assert.deepEqual(
      items.map((i: Record<string, unknown>) => [i.product_id, i.quantity, i.price, i.discount_amount]),
      [
        [ids.mug, 1, 500, 0],
        [ids.tee, 2, 200, 0],
        [ids.cap, 1, 300, 300],
      ],
    );
    const stored = (await server.request('GET', `/v1/orders/${res.body.order.id}`)).body;
    // A stored order leaves out a zero item discount (as the orders API always has).
    assert.deepEqual(
      stored.items.map((i: Record<string, unknown>) => [i.product_id, i.quantity, i.price, i.discount_amount ?? 0]),
      [
        [ids.mug, 1, 500, 0],
        [ids.tee, 2, 200, 0],
        [ids.cap, 1, 300, 300],
      ],
    );
    assert.deepEqual([stored.amount, stored.total_amount], [1200, 900]);
  });

  it('redeems a promotion stack as its tiers, in the stack order', async () => {
    const promotion = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Stacked promotion',
        campaign_type: 'PROMOTION',
        promotion: {
          tiers: [
            { name: 'Five off', action: { discount: { type: 'AMOUNT', amount_off: 500 } } },
            { name: 'Ten percent', action: { discount: { type: 'PERCENT', percent_off: 10 } } },
          ],
        },
      },
    });
    const [five, ten] = promotion.body.promotion.tiers.map((t: { id: string }) => t.id);
    const stack = await server.request('POST', `/v1/promotions/${promotion.body.id}/stacks`, {
      body: { name: 'Both', tiers: { ids: [ten, five] } },
    });
    assert.equal(stack.status, 200, stack.text);
    const res = await redeem([{ object: 'promotion_stack', id: stack.body.id }]);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.redemptions.map((r: Record<string, unknown>) => [r.related_object_type, r.related_object_id]),
      [
        ['promotion_tier', ten],
        ['promotion_tier', five],
      ],
    );
    assert.equal(res.body.order.total_amount, 900 - 90 - 500);
    const unknown = await redeem([{ object: 'promotion_stack', id: 'stack_nope' }]);
    assert.deepEqual(
      unknown.body,
      errorBody(unknown, {
        code: 404,
        key: 'not_found',
        message: 'Resource not found',
        details: 'Cannot find promotion_stack with id stack_nope',
        resource_id: 'stack_nope',
        resource_type: 'promotion_stack',
      }),
    );
  });
});
