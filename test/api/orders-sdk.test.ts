import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The official client (@voucherify/sdk), unchanged, against the orders endpoints. */
describe('orders through @voucherify/sdk', () => {
  let server: TestServer;
  let client: ServerSideClient;
  const clock = fixedClock('2024-09-01T00:00:00.000Z');
  before(async () => {
    server = await startTestServer({ clock });
    client = serverSideClient(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('creates, upserts, gets, updates (by id and by source_id) and lists', async () => {
    const created = await client.orders.create({
      source_id: 'sdk-1',
      status: 'CREATED',
      customer: { source_id: 'sdk-customer', name: 'SDK' },
      items: [
        {
          source_id: 'sdk-product',
          related_object: 'product',
          quantity: 2,
          price: 1500,
          product: { name: 'SDK product' },
        },
      ],
    });
    assert.deepEqual(
      [created.amount, created.total_amount, created.status, created.items?.[0]?.amount],
      [3000, 3000, 'CREATED', 3000],
    );
    clock.advance(1000);
    const upserted = await client.orders.create({ source_id: 'sdk-1', metadata: { retry: true } });
    assert.equal(upserted.id, created.id);
    assert.deepEqual(await client.orders.get('sdk-1'), upserted);
    clock.advance(1000);
    const paid = await client.orders.update({ id: created.id, status: 'PAID' });
    assert.deepEqual(
      [paid.id, paid.status, paid.metadata, paid.updated_at],
      [created.id, 'PAID', { retry: true }, clock.now().toISOString()],
    );
    const bySource = await client.orders.update({ id: '', source_id: 'sdk-1', discount_amount: 500 });
    assert.deepEqual([bySource.id, bySource.total_amount], [created.id, 2500]);
    await client.orders.create({ source_id: 'sdk-2' });
    const page = await client.orders.list({ limit: 1, page: 2 });
    assert.deepEqual(
      [page.object, page.data_ref, page.total, page.orders.map((o) => o.id)],
      ['list', 'orders', 2, [created.id]],
    );
    const customer = (await client.customers.get('sdk-customer')) as { summary: { orders: { total_amount: number } } };
    assert.equal(customer.summary.orders.total_amount, 2500);
  });

  it("rejects with the error body's code, key and message", async () => {
    await assert.rejects(client.orders.get('nope'), (error: { code?: number; key?: string; message?: string }) => {
      assert.deepEqual([error.code, error.key, error.message], [404, 'not_found', 'Resource not found']);
      return true;
    });
    await assert.rejects(
      client.orders.create({ status: 'SHIPPED' as 'PAID' }),
      (error: { code?: number; key?: string; message?: string }) => {
        assert.deepEqual([error.code, error.key, error.message], [400, 'invalid_payload', 'Invalid payload']);
        return true;
      },
    );
  });
});
