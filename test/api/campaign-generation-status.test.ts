import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('a campaign with two generations at once', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const status = async () => (await server.request('GET', '/v1/campaigns/Twice')).body.vouchers_generation_status;

  it('stays IN_PROGRESS until the last one ends', async () => {
    assert.equal((await server.request('POST', '/v1/campaigns', { body: discountCampaign('Twice') })).status, 200);
    const first = await server.request('POST', '/v1/campaigns/Twice/vouchers?vouchers_count=5');
    const second = await server.request('POST', '/v1/campaigns/Twice/vouchers?vouchers_count=7');
    assert.deepEqual([first.status, second.status], [202, 202]);
    assert.equal(await status(), 'IN_PROGRESS');

    const onlyFirst = testRunner(server.deps, { only: [first.body.async_action_id] });
    assert.equal((await waitForJob(server, first.body.async_action_id)).status, 'DONE');
    await onlyFirst.stop();
    assert.equal(await status(), 'IN_PROGRESS', 'the second generation is still open');

    const onlySecond = testRunner(server.deps, { only: [second.body.async_action_id] });
    assert.equal((await waitForJob(server, second.body.async_action_id)).status, 'DONE');
    await onlySecond.stop();
    const campaign = (await server.request('GET', '/v1/campaigns/Twice')).body;
    assert.deepEqual([campaign.vouchers_generation_status, campaign.vouchers_count], ['DONE', 12]);
  });
});
