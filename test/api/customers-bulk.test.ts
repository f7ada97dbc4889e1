import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint } from '../support/db.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertAsyncActionMatchesReference, assertMatchesReference } from '../support/openapi.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';

/** POST /v1/customers/bulk/async and /v1/customers/metadata/async (issue 14 point 6). */
describe('customers bulk updates', () => {
  let server: TestServer;
  let client: ServerSideClient;
  let runner: ReturnType<typeof testRunner>;
  before(async () => {
    server = await startTestServer();
    client = serverSideClient(server);
    runner = testRunner(server.deps);
  });
  after(async () => {
    await runner.stop();
    await server.close();
  });

  const customer = async (sourceId: string) => (await server.request('GET', `/v1/customers/${sourceId}`)).body;
  const eventTypes = async (sourceId: string): Promise<string[]> =>
    ((await server.request('GET', `/v1/customers/${sourceId}/activity`)).body.data as Array<{ type: string }>).map((e) => e.type);
  const failuresOf = async (id: string): Promise<unknown[]> => {
    const res = await fetch(`${server.url}/v1/async-actions/${id}/failures`, { headers: { 'X-App-Id': server.serverKey.app_id, 'X-App-Token': server.serverKey.app_token } });
    return (await res.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown);
  };

  it('updates each customer as PUT does, creates unknown source_ids, and reports each bad entry alone', async () => {
    await client.customers.create({ source_id: 'bulk-ann', name: 'Ann', email: 'ann@example.com', metadata: { a: 1 } });
    const accepted = await client.customers.updateInBulk([
      { source_id: 'bulk-ann', name: 'Ann B', metadata: { b: 2 } },
      { source_id: 'bulk-new', email: 'new@example.com' },
      { source_id: 'bulk-bad', email: 'not-an-email' } as never,
      { name: 'Nobody' } as never,
      { source_id: 'bulk-phone', phone: 42 } as never,
    ]);
    assertMatchesReference('POST', '/v1/customers/bulk/async', 202, accepted);
    assert.deepEqual(Object.keys(accepted), ['async_action_id']);
    const job = await waitForJob(server, accepted.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual([job.type, job.status, job.operation_status, job.progress], ['CUSTOMERS.BULK_UPDATE', 'DONE', 'FAILED', 100]);
    const invalid = (details: string, sourceId?: string) => ({ message: 'Invalid payload', details, key: 'invalid_payload', ...(sourceId ? { source_id: sourceId } : {}) });
    assert.deepEqual(job.result, {
      done_count: 2,
      failed_count: 3,
      reports: [`/v1/async-actions/${job.id}/failures`],
      reports_available_till: null,
      errors: [invalid('email must be a valid e-mail address', 'bulk-bad'), invalid('source_id is required'), invalid('phone must be a string', 'bulk-phone')],
    });
    assert.deepEqual(await failuresOf(job.id), [
      { source_id: 'bulk-bad', reason: 'email must be a valid e-mail address' },
      { reason: 'source_id is required' },
      { source_id: 'bulk-phone', reason: 'phone must be a string' },
    ]);
    const ann = await customer('bulk-ann');
    assert.deepEqual([ann.name, ann.email, ann.metadata], ['Ann B', 'ann@example.com', { b: 2 }]);
    const fresh = await customer('bulk-new');
    assert.deepEqual([fresh.source_id, fresh.email, 'name' in fresh], ['bulk-new', 'new@example.com', false]);
    assert.deepEqual(await eventTypes('bulk-ann'), ['customer.updated', 'customer.created']);
    assert.deepEqual(await eventTypes('bulk-new'), ['customer.created']);
    for (const missing of ['bulk-bad', 'bulk-phone']) assert.equal((await server.request('GET', `/v1/customers/${missing}`)).status, 404);
  });

  it('merges the metadata into each named customer, upserting unknown ones, and fails one that would grow too large', async () => {
    await client.customers.create({ source_id: 'meta-1', metadata: { keep: 'x', over: 1 } });
    await client.customers.create({ source_id: 'meta-big', metadata: { blob: 'x'.repeat(40_000) } });
    const accepted = await client.customers.updateMetadataInBulk({
      source_ids: ['meta-1', 'meta-new', 'meta-big'],
      metadata: { over: 2, added: true, pad: 'y'.repeat(30_000) },
    });
    assertMatchesReference('POST', '/v1/customers/metadata/async', 202, accepted);
    const job = await waitForJob(server, accepted.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual([job.type, job.status, job.operation_status], ['CUSTOMERS.METADATA_UPDATE', 'DONE', 'FAILED']);
    assert.deepEqual(job.result, {
      done_count: 2,
      failed_count: 1,
      reports: [`/v1/async-actions/${job.id}/failures`],
      reports_available_till: null,
      errors: [{ message: 'Invalid payload', details: 'metadata must be at most 65536 bytes as JSON', key: 'invalid_payload', source_id: 'meta-big' }],
    });
    assert.deepEqual((await customer('meta-1')).metadata, { keep: 'x', over: 2, added: true, pad: 'y'.repeat(30_000) });
    assert.deepEqual((await customer('meta-new')).metadata, { over: 2, added: true, pad: 'y'.repeat(30_000) });
    assert.deepEqual((await customer('meta-big')).metadata, { blob: 'x'.repeat(40_000) });
    assert.deepEqual(await eventTypes('meta-1'), ['customer.updated', 'customer.created']);
  });

  it('ends SUCCESS with no errors when every entry lands', async () => {
    const { async_action_id: id } = await client.customers.updateMetadataInBulk({ source_ids: ['ok-1', 'ok-2'], metadata: { tier: 'gold' } });
    const job = await waitForJob(server, id);
    assert.deepEqual([job.status, job.operation_status], ['DONE', 'SUCCESS']);
    assert.deepEqual(job.result, { done_count: 2, failed_count: 0, reports: [`/v1/async-actions/${id}/failures`], reports_available_till: null, errors: [] });
    assert.deepEqual(await failuresOf(id), []);
  });

  it('refuses a malformed request with 400 before any job starts, writing nothing', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `s-${i}`);
    const cases: Array<[string, unknown, string]> = [
      ['/v1/customers/bulk/async', { source_id: 'x' }, 'The body must be a JSON array of customers'],
      ['/v1/customers/bulk/async', [], 'The body must hold at least one of the customers'],
      ['/v1/customers/bulk/async', [{ source_id: 'a' }, 'b'], '[1] must be an object'],
      ['/v1/customers/bulk/async', many.map((s) => ({ source_id: s })), 'The body may hold at most 10000 customers'],
      ['/v1/customers/metadata/async', [], 'The body must be a JSON object'],
      ['/v1/customers/metadata/async', {}, 'source_ids is required; metadata is required'],
      ['/v1/customers/metadata/async', { source_ids: [], metadata: {} }, 'source_ids must hold at least one item'],
      ['/v1/customers/metadata/async', { source_ids: 'a', metadata: {} }, 'source_ids must be an array of strings'],
      ['/v1/customers/metadata/async', { source_ids: ['a', 1, ''], metadata: {} }, 'source_ids[1] must be a string; source_ids[2] must not be empty'],
      ['/v1/customers/metadata/async', { source_ids: ['a'], metadata: [1] }, 'metadata must be an object'],
      ['/v1/customers/metadata/async', { source_ids: many, metadata: {} }, 'source_ids may hold at most 10000 items'],
    ];
    for (const [path, body, details] of cases) {
      const before = dbFingerprint(server.deps.sqlite);
      const res = await server.request('POST', path, { body });
      assert.deepEqual(res.body, errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details }), details);
      assert.equal(dbFingerprint(server.deps.sqlite), before, details);
    }
  });
});
