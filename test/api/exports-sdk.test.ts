import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import type { JobRunner } from '../../src/jobs/runner.js';
import { testRunner } from '../support/jobs.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The official client (@voucherify/sdk), unchanged: client.distributions.exports.create, get, list and delete. */
describe('exports through @voucherify/sdk', () => {
  let server: TestServer;
  let client: ServerSideClient;
  let runner: JobRunner;
  const clock = fixedClock('2024-08-01T00:00:00.000Z');
  before(async () => {
    server = await startTestServer({ clock });
    client = serverSideClient(server);
    runner = testRunner(server.deps);
    await server.request('POST', '/v1/vouchers/SDK-1', { body: { type: 'GIFT_VOUCHER', gift: { amount: 1000 } } });
  });
  after(async () => {
    await runner.stop();
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('creates an export, reads it until DONE, lists and deletes it', async () => {
    const created: { id: string } = await client.distributions.exports.create({
      exported_object: 'voucher',
      parameters: { fields: ['code', 'gift_balance'], order: '-created_at' },
    });
    const scheduled = {
      id: created.id,
      object: 'export',
      created_at: '2024-08-01T00:00:00.000Z',
      status: 'SCHEDULED',
      channel: 'API',
      exported_object: 'voucher',
      parameters: { order: '-created_at', fields: ['code', 'gift_balance'] },
      result: null,
      user_id: null,
    };
    assert.deepEqual(created, scheduled);
    let got: { status: string; result?: { url: string } | null } = await client.distributions.exports.get(created.id);
    for (let i = 0; got.status !== 'DONE' && i < 400; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      got = await client.distributions.exports.get(created.id);
    }
    const done = { ...scheduled, status: 'DONE', result: { url: `${server.url}/v1/exports/${created.id}/download` } };
    assert.deepEqual(got, done);
    const file = await fetch((got.result as { url: string }).url, {
      headers: { 'X-App-Id': server.serverKey.app_id, 'X-App-Token': server.serverKey.app_token },
    });
    assert.deepEqual([file.status, await file.text()], [200, 'code,gift_balance\r\nSDK-1,1000\r\n']);
    assert.deepEqual(await client.distributions.exports.list({ limit: 10, order: '-created_at' }), {
      object: 'list',
      data_ref: 'exports',
      exports: [done],
      total: 1,
    });
    assert.equal(await client.distributions.exports.delete(created.id), ''); // the SDK gives a 204's empty body as ''
    await assert.rejects(
      client.distributions.exports.get(created.id),
      (error: { code?: number; key?: string; message?: string }) => {
        assert.deepEqual([error.code, error.key, error.message], [404, 'not_found', 'Resource not found']);
        return true;
      },
    );
  });

  it("rejects parameters that do not fit with the error body's code and key", async () => {
    await assert.rejects(
      client.distributions.exports.create({ exported_object: 'customer', parameters: { fields: ['code'] } }),
      (error: { code?: number; key?: string; message?: string }) => {
        assert.deepEqual(
          [error.code, error.key, error.message],
          [400, 'invalid_export_params', 'Invalid export params'],
        );
        return true;
      },
    );
  });
});
