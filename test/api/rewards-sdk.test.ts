import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { loyaltyCampaign } from '../support/factories.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The official client (@voucherify/sdk), unchanged, against rewards and reward assignments. */
describe('rewards through @voucherify/sdk', () => {
  let server: TestServer;
  let client: ServerSideClient;
  let program: string;
  const clock = fixedClock('2024-09-01T00:00:00.000Z');
  const at = () => clock.now().toISOString();
  before(async () => {
    server = await startTestServer({ clock });
    client = serverSideClient(server);
    program = (await server.request('POST', '/v1/campaigns', { body: loyaltyCampaign('SDK club') })).body.id;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('creates, gets, lists, updates and deletes rewards', async () => {
    // The client's types intersect every reward type's parameters (never): the answer is checked whole below.
    const created = (await client.rewards.create({
      name: 'Coin',
      type: 'COIN',
      parameters: { coin: { exchange_ratio: 0.25 } },
    })) as unknown as { id: string };
    const expected = {
      id: created.id,
      name: 'Coin',
      type: 'COIN',
      parameters: { coin: { exchange_ratio: 0.25, points_ratio: 1 } },
      stock: null,
      redeemed: null,
      attributes: {},
      created_at: at(),
      updated_at: null,
      metadata: null,
      object: 'reward',
    };
    assert.deepEqual(created, expected);
    assert.deepEqual(await client.rewards.get(created.id), expected);
    assert.deepEqual(await client.rewards.list({ limit: 10, page: 1 }), {
      object: 'list',
      data_ref: 'data',
      data: [expected],
      total: 1,
    });
    clock.advance(1000);
    const updated = await client.rewards.update({
      id: created.id,
      name: 'Coins',
      parameters: { coin: { exchange_ratio: 0.5 } },
    });
    assert.deepEqual(updated, {
      ...expected,
      name: 'Coins',
      parameters: { coin: { exchange_ratio: 0.5, points_ratio: 1 } },
      updated_at: at(),
    });
    await client.rewards.delete(created.id);
    await assert.rejects(client.rewards.get(created.id), (error: { code: number; key: string; message: string }) => {
      assert.deepEqual([error.code, error.key, error.message], [404, 'not_found', 'Resource not found']);
      return true;
    });
  });

  it('assigns rewards to a program through both clients and changes their points cost', async () => {
    const reward = (await client.rewards.create({
      name: 'Points',
      parameters: { campaign: { id: program, balance: 10 } },
    })) as unknown as { id: string };
    const [assignment] = await client.loyalties.createRewardAssignments(program, [
      { reward: reward.id, parameters: { loyalty: { points: 20 } } },
    ]);
    const expected = {
      id: assignment?.id as string,
      reward_id: reward.id,
      related_object_id: program,
      related_object_type: 'campaign',
      parameters: { loyalty: { points: 20 } },
      created_at: at(),
      updated_at: null,
      object: 'reward_assignment',
    };
    assert.deepEqual(assignment, expected);
    assert.deepEqual(await client.loyalties.listRewardAssignments(program, { limit: 5 }), {
      object: 'list',
      data_ref: 'data',
      data: [expected],
      total: 1,
    });
    assert.deepEqual(await client.loyalties.getRewardAssignment(program, expected.id), expected);
    assert.deepEqual(await client.rewards.listAssignments(reward.id), {
      object: 'list',
      data_ref: 'data',
      data: [expected],
      total: 1,
    });
    assert.deepEqual(await client.rewards.getAssignment(reward.id, expected.id), expected);

    clock.advance(1000);
    const cheaper = await client.loyalties.updateRewardAssignment(program, {
      id: expected.id,
      parameters: { loyalty: { points: 15 } },
    });
    assert.deepEqual(cheaper, { ...expected, parameters: { loyalty: { points: 15 } }, updated_at: at() });
    clock.advance(1000);
    const viaReward = await client.rewards.updateAssignment(reward.id, {
      id: expected.id,
      parameters: { loyalty: { points: 12 } },
    });
    assert.deepEqual(viaReward, { ...expected, parameters: { loyalty: { points: 12 } }, updated_at: at() });

    await client.loyalties.deleteRewardAssignment(program, expected.id);
    const again = await client.rewards.createAssignment(reward.id, {
      campaign: program,
      parameters: { loyalty: { points: 9 } },
    });
    assert.deepEqual(again, { ...expected, id: again.id, parameters: { loyalty: { points: 9 } }, created_at: at() });
    await assert.rejects(
      client.rewards.createAssignment(reward.id, { campaign: program, parameters: { loyalty: { points: 9 } } }),
      (error: { code: number; key: string }) => {
        assert.deepEqual([error.code, error.key], [409, 'duplicate_found']);
        return true;
      },
    );
    await client.rewards.deleteAssignment(reward.id, again.id);
    assert.deepEqual(await client.rewards.listAssignments(reward.id), {
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
    });
  });
});
