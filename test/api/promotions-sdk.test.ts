import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

const discount = { type: 'AMOUNT', amount_off: 300, effect: 'APPLY_TO_ORDER' };
// The client's types name the discount type by its own enum; the wire value is the string.
type TierAction = NonNullable<Parameters<ServerSideClient['promotions']['tiers']['create']>[1]['action']>;
const action = { discount } as unknown as TierAction;

/** The official client (@voucherify/sdk), unchanged, against promotion tiers and stacks. */
describe('promotion tiers and stacks through @voucherify/sdk', () => {
  let server: TestServer;
  let client: ServerSideClient;
  let campaignId: string;

  before(async () => {
    server = await startTestServer();
    client = serverSideClient(server);
    campaignId = (
      await server.request('POST', '/v1/campaigns', { body: { name: 'Spring', campaign_type: 'PROMOTION' } })
    ).body.id;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('creates, lists, gets, updates and deletes tiers', async () => {
    const created = (await client.promotions.tiers.create(campaignId, {
      name: 'Three off',
      action,
      metadata: { a: 1 },
    })) as unknown as Record<string, unknown>;
    const stored = (await server.request('GET', `/v1/promotions/tiers/${created.id as string}`)).body;
    assert.deepEqual(created, stored);
    assert.equal(created.hierarchy, 1);
    assert.deepEqual(await client.promotions.tiers.get(created.id as string), stored);
    assert.deepEqual(await client.promotions.tiers.list(campaignId), {
      object: 'list',
      data_ref: 'tiers',
      tiers: [stored],
      total: 1,
      has_more: false,
    });
    assert.deepEqual(await client.promotions.tiers.listAll({ is_available: true, limit: 10, page: 1 }), {
      object: 'list',
      data_ref: 'tiers',
      tiers: [stored],
      total: 1,
    });

    // The client sends the whole object, id included, as the body of the PUT.
    const updated = (await client.promotions.tiers.update({
      id: created.id as string,
      name: 'Four off',
      action: { discount: { ...discount, amount_off: 400 } } as unknown as TierAction,
    })) as unknown as Record<string, unknown>;
    assert.deepEqual(updated, {
      ...stored,
      name: 'Four off',
      action: { discount: { ...discount, amount_off: 400 } },
      updated_at: updated.updated_at,
    });
    assert.match(updated.updated_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    await client.promotions.tiers.delete(created.id as string);
    await assert.rejects(client.promotions.tiers.get(created.id as string), (error: { code: number; key: string }) => {
      assert.deepEqual({ code: error.code, key: error.key }, { code: 404, key: 'not_found' });
      return true;
    });
  });

  it('creates, lists, gets, updates and deletes stacks', async () => {
    const a = (await client.promotions.tiers.create(campaignId, { name: 'A', action })) as unknown as { id: string };
    const b = (await client.promotions.tiers.create(campaignId, { name: 'B', action })) as unknown as { id: string };
    const created = (await client.promotions.stack.createInCampaign(campaignId, {
      name: 'AB',
      tiers: { ids: [a.id, b.id], hierarchy_mode: 'MANUAL' },
    })) as unknown as Record<string, unknown>;
    const stored = (await server.request('GET', `/v1/promotions/${campaignId}/stacks/${created.id as string}`)).body;
    assert.deepEqual(created, stored);
    assert.deepEqual(created.tiers, { ids: [a.id, b.id], hierarchy_mode: 'MANUAL' });
    assert.deepEqual(await client.promotions.stack.get(campaignId, created.id as string), stored);
    assert.deepEqual(await client.promotions.stack.listInCampaign(campaignId), {
      object: 'list',
      data_ref: 'data',
      data: [stored],
      total: 1,
    });
    assert.deepEqual(await client.promotions.stack.list({ limit: 5 }), {
      object: 'list',
      data_ref: 'data',
      data: [stored],
      total: 1,
    });

    const updated = (await client.promotions.stack.update(campaignId, created.id as string, {
      name: 'BA',
      tiers: { ids: [b.id, a.id] },
    })) as unknown as Record<string, unknown>;
    assert.deepEqual(updated, {
      ...stored,
      name: 'BA',
      tiers: { ids: [b.id, a.id], hierarchy_mode: 'MANUAL' },
      updated_at: updated.updated_at,
    });

    await client.promotions.stack.delete(campaignId, created.id as string);
    assert.deepEqual(await client.promotions.stack.listInCampaign(campaignId), {
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
    });
  });
});
