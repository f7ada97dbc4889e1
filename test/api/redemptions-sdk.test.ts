import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NEWEST_FIRST, seedRedemptions, T } from '../modules/redemptions/list-seed.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The official client (@voucherify/sdk), unchanged, against the redemption list's read side. */
describe('redemptions through @voucherify/sdk: list and get', () => {
  let server: TestServer;
  let client: ServerSideClient;
  before(async () => {
    server = await startTestServer();
    await seedRedemptions(server);
    client = serverSideClient(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it("lists with the client's parameters, as the API answers them", async () => {
    const listed = await client.redemptions.list({ customer: 'ann', result: 'SUCCESS', limit: 2, page: 1 });
    assert.deepEqual(
      listed,
      (await server.request('GET', '/v1/redemptions?customer=ann&result=SUCCESS&limit=2&page=1')).body,
    );
    assert.deepEqual(
      listed.redemptions.map((r) => r.id),
      ['rr_1', 'r_c1b'],
    );
    assert.equal(listed.total, 4);
    const dated = await client.redemptions.list({ campaign: 'Spring', created_at: { after: T[0] } });
    assert.deepEqual([dated.redemptions.map((r) => r.id), dated.total], [['rf_f1'], 1]);
    // The client's qs sends an array as result[0]=...&result[1]=...
    const both = await client.redemptions.list({ result: ['SUCCESS', 'FAILURE'] } as unknown as { result: 'SUCCESS' });
    assert.deepEqual([both.redemptions.map((r) => r.id), both.total], [NEWEST_FIRST, 8]);
  });

  it('gets one record by id, and rejects an unknown id with the 404 body', async () => {
    assert.deepEqual(
      await client.redemptions.get('rf_f1'),
      (await server.request('GET', '/v1/redemptions/rf_f1')).body,
    );
    await assert.rejects(
      client.redemptions.get('r_missing'),
      (error: { code?: number; key?: string; details?: string }) => {
        assert.deepEqual(
          [error.code, error.key, error.details],
          [404, 'not_found', 'Cannot find redemption with id r_missing'],
        );
        return true;
      },
    );
  });
});
