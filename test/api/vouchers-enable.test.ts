import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { discountCampaign } from '../support/factories.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { serverSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

const notFoundBody = (type: string, id: string, requestId: string | null) => ({
  code: 404,
  key: 'not_found',
  message: 'Resource not found',
  details: `Cannot find ${type} with id ${id}`,
  resource_id: id,
  resource_type: type,
  request_id: requestId,
});

describe('enable and disable, and a voucher with a chosen code', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    assert.equal((await server.request('POST', '/v1/campaigns', { body: discountCampaign('Switch') })).status, 200);
  });
  after(() => server.close());

  it('adds a voucher with the code of the path, and refuses a taken one with 409', async () => {
    const res = await server.request('POST', '/v1/campaigns/Switch/vouchers/CHOSEN-1', {
      body: { metadata: { shelf: 'A' } },
    });
    assert.equal(res.status, 200);
    assertMatchesReference('POST', '/v1/campaigns/{campaignId}/vouchers/{code}', 200, withoutNulls(res.body));
    assert.deepEqual(res.body, (await server.request('GET', '/v1/vouchers/CHOSEN-1')).body);
    assert.deepEqual([res.body.code, res.body.campaign, res.body.metadata], ['CHOSEN-1', 'Switch', { shelf: 'A' }]);
    const taken = await server.request('POST', '/v1/campaigns/Switch/vouchers/CHOSEN-1', { body: {} });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.key, 'duplicate_found');
    const blank = await server.request('POST', `/v1/campaigns/Switch/vouchers/${encodeURIComponent('  ')}`, {
      body: {},
    });
    assert.deepEqual(
      [blank.status, blank.body],
      [
        400,
        {
          code: 400,
          key: 'invalid_payload',
          message: 'Invalid payload',
          details: 'code must hold a character other than white space',
          request_id: blank.headers.get('x-request-id'),
        },
      ],
    );
    assert.equal((await server.request('GET', '/v1/campaigns/Switch')).body.vouchers_count, 1);
  });

  it('disables and enables a voucher, answering the whole voucher', async () => {
    await server.request('POST', '/v1/campaigns/Switch/vouchers/SWITCH-1', { body: {} });
    const disabled = await server.request('POST', '/v1/vouchers/SWITCH-1/disable');
    assert.equal(disabled.status, 200);
    assertMatchesReference('POST', '/v1/vouchers/{code}/disable', 200, withoutNulls(disabled.body));
    assert.deepEqual(disabled.body, (await server.request('GET', '/v1/vouchers/SWITCH-1')).body);
    assert.equal(disabled.body.active, false);
    const enabled = await server.request('POST', '/v1/vouchers/SWITCH-1/enable');
    assert.deepEqual([enabled.status, enabled.body.active], [200, true]);
    const unknown = await server.request('POST', '/v1/vouchers/NOPE/enable');
    assert.deepEqual(
      [unknown.status, unknown.body],
      [404, notFoundBody('voucher', 'NOPE', unknown.headers.get('x-request-id'))],
    );
  });

  it('disables and enables a campaign, answering an empty object', async () => {
    const disabled = await server.request('POST', '/v1/campaigns/Switch/disable');
    assert.deepEqual([disabled.status, disabled.body], [200, {}]);
    assert.equal((await server.request('GET', '/v1/campaigns/Switch')).body.active, false);
    const enabled = await server.request('POST', '/v1/campaigns/Switch/enable');
    assert.deepEqual([enabled.status, enabled.body], [200, {}]);
    assert.equal((await server.request('GET', '/v1/campaigns/Switch')).body.active, true);
    const unknown = await server.request('POST', '/v1/campaigns/Nope/disable');
    assert.deepEqual(
      [unknown.status, unknown.body],
      [404, notFoundBody('campaign', 'Nope', unknown.headers.get('x-request-id'))],
    );
  });

  it('serves the official client', async () => {
    const client = serverSideClient(server);
    const added = await client.campaigns.addCertainVoucher('Switch', 'SDK-1', {});
    assert.equal(added.code, 'SDK-1');
    assert.equal((await client.vouchers.disable('SDK-1')).active, false);
    assert.equal((await client.vouchers.enable('SDK-1')).active, true);
    assert.deepEqual(await client.campaigns.disable('Switch'), {});
    assert.deepEqual(await client.campaigns.enable('Switch'), {});
  });
});
