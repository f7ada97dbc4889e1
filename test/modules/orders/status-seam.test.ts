import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { internalActor } from '../../../src/lib/actor.js';
import { onOrderStatusChanged, type OrderStatusChange } from '../../../src/modules/orders/order-status.seam.js';
import { IMPORT_UPSERT, upsertOrder } from '../../../src/modules/orders/orders.service.js';
import { requestIdOf, startTestServer, type TestServer } from '../../support/server.js';

/** The order-status seam fires for each status change of a stored order, never for new or imported ones. */
describe('the order-status seam', () => {
  let server: TestServer;
  const fired: OrderStatusChange[] = [];
  before(async () => {
    server = await startTestServer();
    onOrderStatusChanged(server.deps.seams, async (_trx, change) => void fired.push(change));
  });
  after(async () => {
    await server.close();
  });

  const post = (body: unknown) => server.request('POST', '/v1/orders', { body });
  const put = (ref: string, body: unknown) => server.request('PUT', `/v1/orders/${ref}`, { body });
  const firedFor = (id: string) => fired.filter((change) => change.order.id === id);

  it('fires with the order as answered and its previous status, once per change', async () => {
    const created = await post({ source_id: 'st-1', status: 'PAID', items: [{ quantity: 1, price: 100 }] });
    assert.deepEqual(firedFor(created.body.id), [], 'a new order has no previous status');
    await put('st-1', { status: 'PAID', metadata: { same: true } });
    assert.deepEqual(firedFor(created.body.id), [], 'the same status is no change');
    const canceled = await put('st-1', { status: 'CANCELED' });
    const reopened = await post({ source_id: 'st-1', status: 'CREATED' });
    assert.deepEqual(firedFor(created.body.id), [
      {
        order: canceled.body,
        previous: 'PAID',
        actor: {
          channel: 'API',
          api_key: { name: 'test server key', app_id: server.serverKey.app_id },
          request_id: requestIdOf(canceled),
        },
        at: canceled.body.updated_at,
      },
      {
        order: reopened.body,
        previous: 'CANCELED',
        actor: {
          channel: 'API',
          api_key: { name: 'test server key', app_id: server.serverKey.app_id },
          request_id: requestIdOf(reopened),
        },
        at: reopened.body.updated_at,
      },
    ]);
  });

  it('does not fire for an imported order changing status', async () => {
    const { deps } = server;
    const ctx = { actor: internalActor(), at: '2024-01-01T00:00:00.000Z', seams: deps.seams };
    const first = await deps.db
      .transaction()
      .execute((trx) => upsertOrder(trx, ctx, { source_id: 'st-imp', status: 'PAID' }, IMPORT_UPSERT));
    await deps.db
      .transaction()
      .execute((trx) => upsertOrder(trx, ctx, { source_id: 'st-imp', status: 'CANCELED' }, IMPORT_UPSERT));
    assert.deepEqual(firedFor(first.order.id), []);
  });
});
