import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_STACKING_RULES } from '../../../src/engine/stacking/index.js';
import { clientSideClient, serverSideClient } from '../../support/sdk.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { calculatedOrder, type StoredOrder, ITEMS, percentVoucher } from './fixtures.js';

/**
 * The real API leaves `inapplicable_redeemables` and `skipped_redeemables` out of a validation
 * when they would be empty (POST /v1/validations, its recorded answers): a client testing
 * `if (res.inapplicable_redeemables)` must take the "all applied" branch.
 */
describe('a validation leaves its empty lists out', () => {
  let server: TestServer;
  let order: StoredOrder;
  before(async () => {
    server = await startTestServer();
    await percentVoucher(server, 'OPT-10');
    order = (await server.request('POST', '/v1/orders', { body: { source_id: 'opt-order', items: ITEMS } })).body;
  });
  after(() => server.close());

  const request = { redeemables: [{ object: 'voucher' as const, id: 'OPT-10' }], order: { source_id: 'opt-order' } };
  const expected = (id: string) => ({
    id,
    valid: true,
    redeemables: [
      {
        status: 'APPLICABLE',
        id: 'OPT-10',
        object: 'voucher',
        order: calculatedOrder(order, { amount: 1000, discount: 100, applied: 100 }, {}),
        applicable_to: { data: [], total: 0, data_ref: 'data', object: 'list' },
        inapplicable_to: { data: [], total: 0, data_ref: 'data', object: 'list' },
        result: { discount: { type: 'PERCENT', percent_off: 10 } },
      },
    ],
    order: calculatedOrder(order, { amount: 1000, discount: 100, applied: 100 }, {}),
    tracking_id: null,
    stacking_rules: DEFAULT_STACKING_RULES,
  });

  it('through @voucherify/sdk, server side and client side', async () => {
    const server_ = await serverSideClient(server).validations.validateStackable(request);
    const client = await clientSideClient(server).validateStackable(request);
    const idOf = (answer: object) => (answer as { id: string }).id; // the SDK's type has no id, the answer does
    assert.deepEqual(server_, expected(idOf(server_)));
    assert.deepEqual(client, expected(idOf(client)));
  });

  it('keeps each list when it has an item', async () => {
    const res = await server.request('POST', '/v1/validations', {
      body: { ...request, redeemables: [...request.redeemables, { object: 'voucher', id: 'NO-SUCH' }] },
    });
    assert.deepEqual(
      [
        res.body.valid,
        res.body.inapplicable_redeemables.map((r: { id: string }) => r.id),
        'skipped_redeemables' in res.body,
      ],
      [false, ['NO-SUCH'], false],
    );
  });
});
