import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { customerObject } from '../modules/customers/fixtures.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

const T0 = '2025-02-01T09:00:00.000Z';
const T1 = '2025-02-01T09:05:00.000Z';
const NULL_ADDRESS = { city: null, state: null, line_1: null, line_2: null, country: null, postal_code: null };

/**
 * A new customer as the reference answers it (POST /v1/customers): no updated_at until its
 * first update, and an address given with null fields kept as that object.
 */
describe('customer shapes through @voucherify/sdk', () => {
  let server: TestServer;
  let client: ServerSideClient;
  const clock = fixedClock(T0);
  before(async () => {
    server = await startTestServer({ clock });
    client = serverSideClient(server);
  });
  after(() => server.close());
  // The SDK types a create's answer as a customer or an unconfirmed one (without id); ours has one.
  const idOf = (answer: object) => (answer as { id: string }).id;

  it('a new customer has no updated_at; its first update gives it one', async () => {
    clock.set(T0);
    const created = await client.customers.create({ source_id: 'shape-1', name: 'Ann' });
    assert.deepEqual(created, customerObject({ id: idOf(created), source_id: 'shape-1', name: 'Ann', created_at: T0 }));
    assert.deepEqual(await client.customers.get(idOf(created)), created);
    clock.set(T1);
    const updated = await client.customers.update({ id: idOf(created), name: 'Ann B.' });
    assert.deepEqual(
      updated,
      customerObject({ id: idOf(created), source_id: 'shape-1', name: 'Ann B.', created_at: T0, updated_at: T1 }),
    );
  });

  it('keeps an address whose fields are all null as that object, and one left out as null', async () => {
    clock.set(T0);
    const nulls = await client.customers.create({
      source_id: 'shape-2',
      address: NULL_ADDRESS,
    } as unknown as Parameters<ServerSideClient['customers']['create']>[0]);
    assert.deepEqual(
      nulls,
      customerObject({ id: idOf(nulls), source_id: 'shape-2', address: NULL_ADDRESS, created_at: T0 }),
    );
    const none = await client.customers.create({ source_id: 'shape-3' });
    assert.deepEqual(none, customerObject({ id: idOf(none), source_id: 'shape-3', created_at: T0 }));
  });
});
