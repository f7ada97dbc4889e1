import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_STACKING_RULES } from '../../../src/engine/stacking/index.js';
import { assertMatchesReference, withoutNulls } from '../../support/openapi.js';
import { requestIdOf, startTestServer, type TestServer } from '../../support/server.js';
import { calculatedOrder, type StoredOrder, fingerprintBut, giftCard, ITEMS, percentVoucher } from './fixtures.js';
import { sqliteOf } from '../../support/sqlite.js';

/**
 * POST /v1/validations and /client/v1/validations: the redemption pipeline without its write
 * stage. The whole answer (APPLICABLE with the order after each, INAPPLICABLE with its error,
 * the stacking rules), and nothing written but the customer.validation.* event.
 */
describe('stackable validations', () => {
  let server: TestServer;
  let customerId: string;
  let order: StoredOrder;
  before(async () => {
    server = await startTestServer();
    customerId = (await server.request('POST', '/v1/customers', { body: { source_id: 'validator' } })).body.id;
    await percentVoucher(server, 'V-PCT');
    await giftCard(server, 'V-GIFT', 1000);
    order = (
      await server.request('POST', '/v1/orders', {
        body: { source_id: 'v-order', customer: { id: customerId }, items: ITEMS },
      })
    ).body;
  });
  after(() => server.close());

  const empty = { data: [], total: 0, data_ref: 'data', object: 'list' };

  for (const [path, auth] of [
    ['/v1/validations', 'server'],
    ['/client/v1/validations', 'client'],
  ] as const) {
    it(`answers ${path} whole and writes only its event`, async () => {
      const before = fingerprintBut(sqliteOf(server.deps), ['customer_events']);
      const events = () =>
        sqliteOf(server.deps)
          .prepare('SELECT type FROM customer_events WHERE customer_id = ? ORDER BY seq')
          .all(customerId) as Array<{ type: string }>;
      const eventsBefore = events().length;
      const body = {
        customer: { source_id: 'validator' },
        order: { source_id: 'v-order' },
        redeemables: [
          { object: 'voucher', id: 'V-PCT' },
          { object: 'voucher', id: 'V-GIFT', gift: { credits: 300 } },
        ],
      };
      const res = await server.request('POST', path, { body, auth });
      assert.equal(res.status, 200, res.text);
      const at = (n: number, applied: number) => calculatedOrder(order, { amount: 1000, discount: n, applied }, {});
      assert.match(res.body.id, /^valid_/);
      assert.deepEqual(res.body, {
        id: res.body.id,
        valid: true,
        redeemables: [
          {
            status: 'APPLICABLE',
            id: 'V-PCT',
            object: 'voucher',
            order: at(100, 100),
            applicable_to: empty,
            inapplicable_to: empty,
            result: { discount: { type: 'PERCENT', percent_off: 10 } },
          },
          {
            status: 'APPLICABLE',
            id: 'V-GIFT',
            object: 'voucher',
            order: at(400, 300),
            applicable_to: empty,
            inapplicable_to: empty,
            result: { gift: { balance: 1000, credits: 300 } },
          },
        ],
        order: at(400, 400),
        tracking_id: 'validator',
        stacking_rules: DEFAULT_STACKING_RULES,
      });
      assertMatchesReference('POST', '/v1/validations', 200, withoutNulls(res.body));
      assert.equal(fingerprintBut(sqliteOf(server.deps), ['customer_events']), before);
      assert.deepEqual(
        events()
          .slice(eventsBefore)
          .map((e) => e.type),
        ['customer.validation.succeeded'],
      );
    });
  }

  it('answers an unknown code as INAPPLICABLE with its 404 error, valid false, and emits validation.failed', async () => {
    const res = await server.request('POST', '/v1/validations', {
      body: {
        customer: { id: customerId },
        order: { amount: 500 },
        redeemables: [
          { object: 'voucher', id: 'V-PCT' },
          { object: 'voucher', id: 'V-NONE' },
        ],
      },
    });
    const inapplicable = {
      status: 'INAPPLICABLE',
      id: 'V-NONE',
      object: 'voucher',
      result: {
        error: {
          code: 404,
          key: 'not_found',
          message: 'Resource not found',
          details: 'Cannot find voucher with id V-NONE',
          resource_id: 'V-NONE',
          resource_type: 'voucher',
          request_id: requestIdOf(res),
        },
        details: { key: 'resource_not_found', message: 'Resource not found' },
      },
    };
    assert.equal(res.body.valid, false);
    assert.deepEqual(
      res.body.redeemables.map((r: { status: string }) => r.status),
      ['APPLICABLE', 'INAPPLICABLE'],
    );
    assert.deepEqual([res.body.redeemables[1], res.body.inapplicable_redeemables], [inapplicable, [inapplicable]]);
    assert.equal(res.body.order.id, undefined, 'a validation keeps no new order, so it has no id');
    assert.equal((await server.request('GET', '/v1/orders?limit=100')).body.orders.length, 1);
    const last = sqliteOf(server.deps)
      .prepare('SELECT type FROM customer_events WHERE customer_id = ? ORDER BY seq DESC LIMIT 1')
      .get(customerId);
    assert.deepEqual(last, { type: 'customer.validation.failed' });
  });
});
