import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint } from '../support/db.js';
import { percentDiscount } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertAsyncActionMatchesReference, assertMatchesReference } from '../support/openapi.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';

/** POST /v1/vouchers/bulk/async and /v1/vouchers/metadata/async (issue 14 point 6). */
describe('vouchers bulk updates', () => {
  let server: TestServer;
  let client: ServerSideClient;
  let runner: ReturnType<typeof testRunner>;
  before(async () => {
    server = await startTestServer();
    client = serverSideClient(server);
    runner = testRunner(server.deps);
    for (const [code, metadata] of [['BV-1', { keep: 'x', over: 1 }], ['BV-2', {}], ['MV-1', { lang: 'pl' }], ['MV-2', {}]] as const) {
      const res = await server.request('POST', `/v1/vouchers/${code}`, { body: { type: 'DISCOUNT_VOUCHER', discount: percentDiscount, metadata } });
      assert.equal(res.status, 200);
    }
  });
  after(async () => {
    await runner.stop();
    await server.close();
  });

  const metadataOf = async (code: string) => (await server.request('GET', `/v1/vouchers/${code}`)).body.metadata;

  it('merges each entry\'s metadata into its voucher, and fails unknown codes and bad entries alone', async () => {
    const before = (await server.request('GET', '/v1/vouchers/BV-1')).body;
    const accepted = await client.vouchers.bulkUpdate([
      { code: 'BV-1', metadata: { over: 2, added: true } },
      { code: 'BV-2', metadata: { tier: 'gold' } },
      { code: 'BV-NONE', metadata: { a: 1 } },
      { code: 'BV-2', metadata: 'no' as never },
      { metadata: { a: 1 } } as never,
    ]);
    assertMatchesReference('POST', '/v1/vouchers/bulk/async', 202, accepted);
    assert.deepEqual(Object.keys(accepted), ['async_action_id']);
    const job = await waitForJob(server, accepted.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual([job.type, job.status, job.operation_status, job.progress], ['VOUCHERS.BULK_UPDATE', 'DONE', 'FAILED', 100]);
    assert.deepEqual(job.result, {
      done_count: 2,
      failed_count: 3,
      reports: [`/v1/async-actions/${job.id}/failures`],
      reports_available_till: null,
      errors: [
        { message: 'Resource not found', details: 'Cannot find voucher with id BV-NONE', key: 'not_found', code: 'BV-NONE' },
        { message: 'Invalid payload', details: 'metadata must be an object', key: 'invalid_payload', code: 'BV-2' },
        { message: 'Invalid payload', details: 'code is required', key: 'invalid_payload' },
      ],
    });
    const after = (await server.request('GET', '/v1/vouchers/BV-1')).body;
    assert.deepEqual(after, { ...before, metadata: { keep: 'x', over: 2, added: true }, updated_at: after.updated_at });
    assert.notEqual(after.updated_at, before.updated_at);
    assert.deepEqual(await metadataOf('BV-2'), { tier: 'gold' });
    assert.equal((await server.request('GET', '/v1/vouchers/BV-NONE')).status, 404);
  });

  it('merges one metadata into every named voucher; unknown codes fail', async () => {
    const accepted = await client.vouchers.bulkUpdateMetadata({ codes: ['MV-1', 'MV-2', 'MV-NONE'], metadata: { lang: 'en', authorized_internally: true } });
    assertMatchesReference('POST', '/v1/vouchers/metadata/async', 202, accepted);
    const job = await waitForJob(server, accepted.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual([job.type, job.status, job.operation_status], ['VOUCHERS.METADATA_UPDATE', 'DONE', 'FAILED']);
    assert.deepEqual(job.result, {
      done_count: 2,
      failed_count: 1,
      reports: [`/v1/async-actions/${job.id}/failures`],
      reports_available_till: null,
      errors: [{ message: 'Resource not found', details: 'Cannot find voucher with id MV-NONE', key: 'not_found', code: 'MV-NONE' }],
    });
    assert.deepEqual(await metadataOf('MV-1'), { lang: 'en', authorized_internally: true });
    assert.deepEqual(await metadataOf('MV-2'), { lang: 'en', authorized_internally: true });
  });

  it('refuses a malformed request with 400 before any job starts, writing nothing', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/v1/vouchers/bulk/async', { code: 'BV-1', metadata: {} }, 'The body must be a JSON array of vouchers'],
      ['/v1/vouchers/bulk/async', [], 'The body must hold at least one of the vouchers'],
      ['/v1/vouchers/bulk/async', [{ code: 'BV-1', metadata: {} }, 7], '[1] must be an object'],
      ['/v1/vouchers/metadata/async', 'codes', 'The body must be a JSON object'],
      ['/v1/vouchers/metadata/async', { codes: [], metadata: {} }, 'codes must hold at least one item'],
      ['/v1/vouchers/metadata/async', { codes: [null], metadata: { a: 1 } }, 'codes[0] must be a string'],
      ['/v1/vouchers/metadata/async', { source_ids: ['MV-1'], metadata: {} }, 'codes is required'],
    ];
    for (const [path, body, details] of cases) {
      const before = dbFingerprint(server.deps.sqlite);
      const res = await server.request('POST', path, { body });
      assert.deepEqual(res.body, errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details }), details);
      assert.equal(dbFingerprint(server.deps.sqlite), before, details);
    }
  });
});
