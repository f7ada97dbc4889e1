import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The status clients poll (`while (status === 'IN_PROGRESS')`, then read the result): a job
 * nothing holds up reads IN_PROGRESS from its first poll, before any runner claims it; one
 * waiting behind an older job of its type reads ENQUEUED until that one ends.
 */
describe('async action status on the first poll, through @voucherify/sdk', () => {
  let server: TestServer;
  let client: ServerSideClient;
  before(async () => {
    server = await startTestServer();
    client = serverSideClient(server);
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Polled') });
  });
  after(() => server.close());

  it('IN_PROGRESS first, ENQUEUED behind it, and the poll loop ends with the result', async () => {
    const first = (await server.request('POST', '/v1/campaigns/Polled/vouchers?vouchers_count=2', { body: {} })).body
      .async_action_id as string;
    const second = (await server.request('POST', '/v1/campaigns/Polled/vouchers?vouchers_count=3', { body: {} })).body
      .async_action_id as string;
    // The SDK's type has no progress; the answer has it.
    const get = async (id: string) =>
      (await client.asyncActions.get(id)) as unknown as { status: string; progress: number; type: string };
    const polled = async (id: string) => {
      const { status, progress, type } = await get(id);
      return { status, progress, type };
    };
    assert.deepEqual(await polled(first), { status: 'IN_PROGRESS', progress: 0, type: 'CAMPAIGN.VOUCHERS_GENERATE' });
    assert.deepEqual(await polled(second), { status: 'ENQUEUED', progress: 0, type: 'CAMPAIGN.VOUCHERS_GENERATE' });
    const listed = await client.asyncActions.list({ limit: 2 } as Parameters<
      ServerSideClient['asyncActions']['list']
    >[0]);
    assert.deepEqual(
      listed.async_actions.map((a) => [a.id, a.status]),
      [
        [second, 'ENQUEUED'],
        [first, 'IN_PROGRESS'],
      ],
    );

    const runner = testRunner(server.deps);
    try {
      let action = await get(first);
      while (action.status === 'IN_PROGRESS') {
        await new Promise((resolve) => setTimeout(resolve, 25));
        action = await get(first);
      }
      assert.deepEqual([action.status, action.progress], ['DONE', 100]);
      assert.equal((await waitForJob(server, second)).status, 'DONE');
    } finally {
      await runner.stop();
    }
  });
});
