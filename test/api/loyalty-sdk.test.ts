import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The official client (@voucherify/sdk), unchanged, against the loyalty program and member endpoints. */
describe('loyalty programs and members through @voucherify/sdk', () => {
  let server: TestServer;
  let client: ServerSideClient;
  before(async () => {
    server = await startTestServer({ clock: fixedClock('2025-01-01T00:00:00.000Z') });
    client = serverSideClient(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('creates, reads, lists, updates and deletes a program', async () => {
    const created = await client.loyalties.create({
      name: 'SDK stars',
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 10 } },
    } as Parameters<ServerSideClient['loyalties']['create']>[0]);
    assert.deepEqual(await client.loyalties.get(created.id), created);
    assert.deepEqual(await client.loyalties.get('SDK stars'), created);
    const list = await client.loyalties.list({ limit: 10 });
    assert.deepEqual([list.total, list.campaigns?.map((c) => c.id)], [1, [created.id]]);
    const updated = await client.loyalties.update({ id: created.id, description: 'Ten to start' });
    assert.deepEqual(updated, { ...created, description: 'Ten to start', updated_at: '2025-01-01T00:00:00.000Z' });
    const deleted = (await client.loyalties.delete(created.id, { force: true })) as unknown as {
      async_action_id: string;
    };
    assert.match(deleted.async_action_id, /^aa_/);
    await assert.rejects(
      client.loyalties.get(created.id),
      (error: { code?: number; key?: string; message?: string }) => {
        assert.deepEqual([error.code, error.key, error.message], [404, 'not_found', 'Resource not found']);
        return true;
      },
    );
  });

  it('adds members, reads one by code with and without the program, and lists them with filters', async () => {
    const program = await client.loyalties.create({
      name: 'SDK moons',
      voucher: { loyalty_card: { points: 5 } },
    } as Parameters<ServerSideClient['loyalties']['create']>[0]);
    const ann = await client.loyalties.createMember(program.id, { customer: { source_id: 'sdk-ann', name: 'Ann' } });
    const bob = await client.loyalties.createMember(program.id, {
      customer: { source_id: 'sdk-bob' },
      metadata: { via: 'sdk' },
    });
    assert.deepEqual(
      [ann.campaign_id, ann.loyalty_card?.balance, ann.publish?.count, bob.holder_id === ann.holder_id],
      [program.id, 5, 1, false],
    );
    assert.deepEqual(await client.loyalties.getMember(program.id, ann.code), ann);
    assert.deepEqual(await client.loyalties.getMember(null as unknown as string, bob.code), bob);
    const all = await client.loyalties.listMembers(program.id, { limit: 10 });
    assert.deepEqual([all.total, all.vouchers.map((v) => v.code)], [2, [bob.code, ann.code]]);
    const annOnly = await client.loyalties.listMembers(program.id, { customer: 'sdk-ann' } as Parameters<
      ServerSideClient['loyalties']['listMembers']
    >[1]);
    assert.deepEqual([annOnly.total, annOnly.vouchers.map((v) => v.code)], [1, [ann.code]]);
    const byIds = await client.loyalties.listMembers(program.id, { ids: [ann.id, bob.id], order: 'code' } as Parameters<
      ServerSideClient['loyalties']['listMembers']
    >[1]);
    assert.deepEqual(
      byIds.vouchers.map((v) => v.code),
      [ann.code, bob.code].sort(),
    );
    const customer = await client.customers.get('sdk-ann');
    assert.deepEqual(customer.loyalty, {
      points: 5,
      referred_customers: 0,
      campaigns: { 'SDK moons': { points: 5, referred_customers: 0 } },
    });
  });
});
