import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint } from '../support/db.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertAsyncActionMatchesReference, assertMatchesReference } from '../support/openapi.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';

/** POST /v1/products/bulk/async and /v1/products/metadata/async (issue 14 point 6). */
describe('products bulk updates', () => {
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

  const product = async (sourceId: string) => (await server.request('GET', `/v1/products/${sourceId}`)).body;
  const invalid = (details: string, sourceId?: string) => ({ message: 'Invalid payload', details, key: 'invalid_payload', ...(sourceId ? { source_id: sourceId } : {}) });

  it('updates each product as PUT does, creates unknown source_ids, and reports each bad entry alone', async () => {
    await client.products.create({ source_id: 'bp-1', name: 'Shirt', price: 1000, attributes: ['size'], metadata: { a: 1 } });
    await client.products.create({ source_id: 'bp-hat', name: 'Hat' });
    const accepted = await client.products.bulkUpdate([
      { source_id: 'bp-1', price: 1200, metadata: { b: 2 } },
      { source_id: 'bp-new', name: 'Socks', price: 300 },
      { source_id: 'bp-dup', name: 'Hat' },
      { source_id: 'bp-price', price: 'cheap' as never },
      { name: 'No source' },
    ]);
    assertMatchesReference('POST', '/v1/products/bulk/async', 202, accepted);
    assert.deepEqual(Object.keys(accepted), ['async_action_id']);
    const job = await waitForJob(server, accepted.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual([job.type, job.status, job.operation_status, job.progress], ['PRODUCTS.BULK_UPDATE', 'DONE', 'FAILED', 100]);
    assert.deepEqual(job.result, {
      done_count: 2,
      failed_count: 3,
      reports: [`/v1/async-actions/${job.id}/failures`],
      reports_available_till: null,
      errors: [
        { message: 'Duplicated resource found', details: 'Duplicated product exists with name Hat', key: 'duplicate_found', source_id: 'bp-dup' },
        invalid('price must be an integer or null', 'bp-price'),
        invalid('source_id is required'),
      ],
    });
    const shirt = await product('bp-1');
    assert.deepEqual([shirt.name, shirt.price, shirt.attributes, shirt.metadata], ['Shirt', 1200, ['size'], { b: 2 }]);
    const socks = await product('bp-new');
    assert.deepEqual([socks.source_id, socks.name, socks.price, socks.metadata], ['bp-new', 'Socks', 300, {}]);
    for (const missing of ['bp-dup', 'bp-price']) assert.equal((await server.request('GET', `/v1/products/${missing}`)).status, 404);
  });

  it('merges the metadata into each named product, upserting unknown ones', async () => {
    await client.products.create({ source_id: 'pm-1', name: 'Mug', metadata: { keep: 'x', over: 1 } });
    const accepted = await client.products.bulkUpdateMetadata({ source_ids: ['pm-1', 'pm-new'], metadata: { over: 2, added: true } });
    assertMatchesReference('POST', '/v1/products/metadata/async', 202, accepted);
    const job = await waitForJob(server, accepted.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual([job.type, job.status, job.operation_status], ['PRODUCTS.METADATA_UPDATE', 'DONE', 'SUCCESS']);
    assert.deepEqual(job.result, { done_count: 2, failed_count: 0, reports: [`/v1/async-actions/${job.id}/failures`], reports_available_till: null, errors: [] });
    const mug = await product('pm-1');
    assert.deepEqual([mug.name, mug.metadata], ['Mug', { keep: 'x', over: 2, added: true }]);
    assert.deepEqual((await product('pm-new')).metadata, { over: 2, added: true });
  });

  it('refuses a malformed request with 400 before any job starts, writing nothing', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/v1/products/bulk/async', null, 'The body must be a JSON array of products'],
      ['/v1/products/bulk/async', [], 'The body must hold at least one of the products'],
      ['/v1/products/bulk/async', [[]], '[0] must be an object'],
      ['/v1/products/metadata/async', { source_ids: ['a'] }, 'metadata is required'],
      ['/v1/products/metadata/async', { codes: ['a'], metadata: {} }, 'source_ids is required'],
    ];
    for (const [path, body, details] of cases) {
      const before = dbFingerprint(server.deps.sqlite);
      const res = await server.request('POST', path, { body });
      assert.deepEqual(res.body, errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details }), details);
      assert.equal(dbFingerprint(server.deps.sqlite), before, details);
    }
  });
});
