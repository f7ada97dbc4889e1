import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** What these tests read of a customer; the client types create/update answers as a union. */
interface Customer {
  id: string;
  source_id?: string;
  name?: string;
  email?: string;
  phone?: string;
}

/** The official client (@voucherify/sdk), unchanged, against the customer endpoints. */
describe('customers through @voucherify/sdk', () => {
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

  it('creates, upserts, reads, updates by source_id, lists activity and deletes', async () => {
    const created = (await client.customers.create({
      source_id: 'sdk-1',
      name: 'SDK',
      address: { city: 'Lisbon' },
      metadata: { a: 1 },
    })) as Customer;
    clock.advance(1000);
    const upserted = (await client.customers.create({ source_id: 'sdk-1', email: 'sdk@x.io' })) as Customer;
    assert.equal(upserted.id, created.id);
    assert.deepEqual(await client.customers.get('sdk-1'), upserted);
    clock.advance(1000);
    const updated = (await client.customers.update({ source_id: 'sdk-1', phone: '+351' })) as Customer;
    assert.deepEqual([updated.id, updated.phone, updated.email, updated.name], [created.id, '+351', 'sdk@x.io', 'SDK']);
    const activity = await client.customers.listActivity('sdk-1', { limit: 2 });
    assert.deepEqual(
      activity.data.map((e) => e.type),
      ['customer.updated', 'customer.updated'],
    );
    assert.equal(activity.has_more, true);
    const rest = await client.customers.listActivity(created.id, {
      limit: 2,
      starting_after_id: activity.more_starting_after,
    });
    assert.deepEqual([rest.data.map((e) => e.type), rest.has_more], [['customer.created'], false]);
    await client.customers.delete(created.id);
    await assert.rejects(
      client.customers.get(created.id),
      (error: { code?: number; key?: string; message?: string }) => {
        assert.deepEqual([error.code, error.key, error.message], [404, 'not_found', 'Resource not found']);
        return true;
      },
    );
  });

  it("lists with filters, and scrolls the whole list with the client's starting_after cursor", async () => {
    for (let i = 0; i < 7; i++) {
      clock.advance(1000);
      await client.customers.create({ source_id: `scroll-${i}`, address: { city: i % 2 ? 'Odd' : 'Even' } });
    }
    const odd = await client.customers.list({ city: 'odd', limit: 10 });
    assert.deepEqual([odd.total, odd.customers.map((c) => c.source_id)], [3, ['scroll-5', 'scroll-3', 'scroll-1']]);
    const scroll = (params: { limit: number; order?: 'created_at' }) =>
      client.customers.scroll(params) as AsyncIterable<Customer>;
    const seen: string[] = [];
    for await (const customer of scroll({ limit: 3 })) seen.push(customer.source_id ?? '');
    assert.deepEqual(seen, ['scroll-6', 'scroll-5', 'scroll-4', 'scroll-3', 'scroll-2', 'scroll-1', 'scroll-0']);
    const ascending: string[] = [];
    for await (const customer of scroll({ limit: 3, order: 'created_at' })) ascending.push(customer.source_id ?? '');
    assert.deepEqual(ascending, ['scroll-0', 'scroll-1', 'scroll-2', 'scroll-3', 'scroll-4', 'scroll-5', 'scroll-6']);
  });
});
