import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint } from '../support/db.js';
import { percentDiscount } from '../support/factories.js';
import { testRunner, waitForJob, type EndedJob } from '../support/jobs.js';
import { assertAsyncActionMatchesReference, assertMatchesReference } from '../support/openapi.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

/**
 * The bulk updates (issue 14 point 6): POST /v1/{customers,products,vouchers}/bulk/async and
 * /metadata/async through the official client, each job polled to its end and its whole
 * result checked.
 */
describe('bulk updates', () => {
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

  const get = async (path: string) => (await server.request('GET', path)).body;
  const eventTypes = async (sourceId: string): Promise<string[]> =>
    ((await get(`/v1/customers/${sourceId}/activity`)).data as Array<{ type: string }>).map((e) => e.type);
  const invalid = (details: string, named: Record<string, string> = {}) => ({
    message: 'Invalid payload',
    details,
    key: 'invalid_payload',
    ...named,
  });
  const notFoundVoucher = (code: string) => ({
    message: 'Resource not found',
    details: `Cannot find voucher with id ${code}`,
    key: 'not_found',
    code,
  });

  /** The 202 answer checked against the reference, then the job polled to its end, checked, and read again through the client. */
  async function ended(
    path: string,
    accepted: { async_action_id: string },
    type: string,
    operationStatus: string,
  ): Promise<EndedJob> {
    assertMatchesReference('POST', path, 202, accepted);
    assert.deepEqual(Object.keys(accepted), ['async_action_id']);
    const job = await waitForJob(server, accepted.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual([job.type, job.status, job.operation_status, job.progress], [type, 'DONE', operationStatus, 100]);
    assert.deepEqual(await client.asyncActions.get(job.id), job);
    return job;
  }

  const resultOf = (job: EndedJob, done: number, errors: unknown[]) => ({
    done_count: done,
    failed_count: errors.length,
    reports: [`/v1/async-actions/${job.id}/failures`],
    reports_available_till: null,
    errors,
  });

  async function failuresOf(id: string): Promise<unknown[]> {
    const res = await fetch(`${server.url}/v1/async-actions/${id}/failures`, {
      headers: { 'X-App-Id': server.serverKey.app_id, 'X-App-Token': server.serverKey.app_token },
    });
    return (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
  }

  /** Each request answers 400 invalid_payload with these details and leaves the database as it was. */
  async function assertRefused(cases: Array<[string, unknown, string]>): Promise<void> {
    for (const [path, body, details] of cases) {
      const fingerprint = dbFingerprint(sqliteOf(server.deps));
      const res = await server.request('POST', path, { body });
      assert.deepEqual(
        res.body,
        errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details }),
        details,
      );
      assert.equal(dbFingerprint(sqliteOf(server.deps)), fingerprint, details);
    }
  }

  describe('customers', () => {
    it('updates each customer as PUT does, creates unknown source_ids, and reports each bad entry alone', async () => {
      await client.customers.create({
        source_id: 'bulk-ann',
        name: 'Ann',
        email: 'ann@example.com',
        metadata: { a: 1 },
      });
      const accepted = await client.customers.updateInBulk([
        { source_id: 'bulk-ann', name: 'Ann B', metadata: { b: 2 } },
        { source_id: 'bulk-new', email: 'new@example.com' },
        { source_id: 'bulk-bad', email: 'not-an-email' } as never,
        { name: 'Nobody' } as never,
        { source_id: 'bulk-phone', phone: 42 } as never,
        { id: 'cust_unknown', source_id: 'bulk-id', name: 'Named by source_id' } as never,
      ]);
      const job = await ended('/v1/customers/bulk/async', accepted, 'CUSTOMERS.BULK_UPDATE', 'FAILED');
      assert.deepEqual(
        job.result,
        resultOf(job, 3, [
          invalid('email must be a valid e-mail address', { source_id: 'bulk-bad' }),
          invalid('source_id is required'),
          invalid('phone must be a string', { source_id: 'bulk-phone' }),
        ]),
      );
      assert.deepEqual(await failuresOf(job.id), [
        { source_id: 'bulk-bad', reason: 'email must be a valid e-mail address' },
        { reason: 'source_id is required' },
        { source_id: 'bulk-phone', reason: 'phone must be a string' },
      ]);
      const ann = await get('/v1/customers/bulk-ann');
      assert.deepEqual([ann.name, ann.email, ann.metadata], ['Ann B', 'ann@example.com', { b: 2 }]);
      const fresh = await get('/v1/customers/bulk-new');
      assert.deepEqual([fresh.source_id, fresh.email, 'name' in fresh], ['bulk-new', 'new@example.com', false]);
      assert.deepEqual(await eventTypes('bulk-ann'), ['customer.updated', 'customer.created']);
      assert.deepEqual(await eventTypes('bulk-new'), ['customer.created']);
      assert.deepEqual((await get('/v1/customers/bulk-id')).name, 'Named by source_id');
      for (const missing of ['bulk-bad', 'bulk-phone'])
        assert.equal((await server.request('GET', `/v1/customers/${missing}`)).status, 404);
    });

    it('merges the metadata into each named customer, upserting unknown ones, and fails one that would grow too large', async () => {
      await client.customers.create({ source_id: 'meta-1', metadata: { keep: 'x', over: 1 } });
      await client.customers.create({ source_id: 'meta-big', metadata: { blob: 'x'.repeat(40_000) } });
      const metadata = { over: 2, added: true, pad: 'y'.repeat(30_000) };
      const accepted = await client.customers.updateMetadataInBulk({
        source_ids: ['meta-1', 'meta-new', 'meta-big'],
        metadata,
      });
      const job = await ended('/v1/customers/metadata/async', accepted, 'CUSTOMERS.METADATA_UPDATE', 'FAILED');
      assert.deepEqual(
        job.result,
        resultOf(job, 2, [invalid('metadata must be at most 65536 bytes as JSON', { source_id: 'meta-big' })]),
      );
      assert.deepEqual((await get('/v1/customers/meta-1')).metadata, { keep: 'x', ...metadata });
      assert.deepEqual((await get('/v1/customers/meta-new')).metadata, metadata);
      assert.deepEqual((await get('/v1/customers/meta-big')).metadata, { blob: 'x'.repeat(40_000) });
      assert.deepEqual(await eventTypes('meta-1'), ['customer.updated', 'customer.created']);
    });

    it('ends SUCCESS with no errors and an empty report when every entry lands', async () => {
      const accepted = await client.customers.updateMetadataInBulk({
        source_ids: ['ok-1', 'ok-2'],
        metadata: { tier: 'gold' },
      });
      const job = await ended('/v1/customers/metadata/async', accepted, 'CUSTOMERS.METADATA_UPDATE', 'SUCCESS');
      assert.deepEqual(job.result, resultOf(job, 2, []));
      assert.deepEqual(await failuresOf(job.id), []);
    });

    it('refuses a malformed request with 400 before any job starts, writing nothing', async () => {
      const many = Array.from({ length: 10_001 }, (_, i) => `s-${i}`);
      await assertRefused([
        ['/v1/customers/bulk/async', { source_id: 'x' }, 'The body must be a JSON array of customers'],
        ['/v1/customers/bulk/async', [{ source_id: 'a' }, 'b'], '[1] must be an object'],
        ['/v1/customers/bulk/async', many.map((s) => ({ source_id: s })), 'The body may hold at most 10000 customers'],
        ['/v1/customers/metadata/async', [], 'The body must be a JSON object'],
        ['/v1/customers/metadata/async', { source_ids: 'a', metadata: {} }, 'source_ids must be an array of strings'],
        ['/v1/customers/metadata/async', { metadata: {} }, 'source_ids is required'],
        [
          '/v1/customers/metadata/async',
          { source_ids: ['a', 1, ''], metadata: {} },
          'source_ids[1] must be a string; source_ids[2] must not be empty',
        ],
        ['/v1/customers/metadata/async', { source_ids: ['a'], metadata: [1] }, 'metadata must be an object'],
        ['/v1/customers/metadata/async', { source_ids: many, metadata: {} }, 'source_ids may hold at most 10000 items'],
      ]);
    });
  });

  describe('products', () => {
    it('updates each product as PUT does, creates unknown source_ids, and reports each bad entry alone', async () => {
      await client.products.create({
        source_id: 'bp-1',
        name: 'Shirt',
        price: 1000,
        attributes: ['size'],
        metadata: { a: 1 },
      });
      await client.products.create({ source_id: 'bp-hat', name: 'Hat' });
      const accepted = await client.products.bulkUpdate([
        { source_id: 'bp-1', price: 1200, metadata: { b: 2 } },
        { source_id: 'bp-new', name: 'Socks', price: 300 },
        { source_id: 'bp-dup', name: 'Hat' },
        { source_id: 'bp-price', price: 'cheap' as never },
        { name: 'No source' },
        { id: 'prod_unknown', source_id: 'bp-id', name: 'Named by source_id' } as never,
      ]);
      const job = await ended('/v1/products/bulk/async', accepted, 'PRODUCTS.BULK_UPDATE', 'FAILED');
      assert.deepEqual(
        job.result,
        resultOf(job, 3, [
          {
            message: 'Duplicated resource found',
            details: 'Duplicated product exists with name Hat',
            key: 'duplicate_found',
            source_id: 'bp-dup',
          },
          invalid('price must be an integer or null', { source_id: 'bp-price' }),
          invalid('source_id is required'),
        ]),
      );
      const shirt = await get('/v1/products/bp-1');
      assert.deepEqual(
        [shirt.name, shirt.price, shirt.attributes, shirt.metadata],
        ['Shirt', 1200, ['size'], { b: 2 }],
      );
      const socks = await get('/v1/products/bp-new');
      assert.deepEqual([socks.source_id, socks.name, socks.price, socks.metadata], ['bp-new', 'Socks', 300, {}]);
      assert.deepEqual((await get('/v1/products/bp-id')).name, 'Named by source_id');
      for (const missing of ['bp-dup', 'bp-price'])
        assert.equal((await server.request('GET', `/v1/products/${missing}`)).status, 404);
    });

    it('merges the metadata into each named product, upserting unknown ones', async () => {
      await client.products.create({ source_id: 'pm-1', name: 'Mug', metadata: { keep: 'x', over: 1 } });
      const accepted = await client.products.bulkUpdateMetadata({
        source_ids: ['pm-1', 'pm-new'],
        metadata: { over: 2, added: true },
      });
      const job = await ended('/v1/products/metadata/async', accepted, 'PRODUCTS.METADATA_UPDATE', 'SUCCESS');
      assert.deepEqual(job.result, resultOf(job, 2, []));
      const mug = await get('/v1/products/pm-1');
      assert.deepEqual([mug.name, mug.metadata], ['Mug', { keep: 'x', over: 2, added: true }]);
      assert.deepEqual((await get('/v1/products/pm-new')).metadata, { over: 2, added: true });
    });

    it('refuses a malformed request with 400 before any job starts, writing nothing', async () => {
      await assertRefused([
        ['/v1/products/bulk/async', [[]], '[0] must be an object'],
        ['/v1/products/metadata/async', { source_ids: ['a'] }, 'metadata is required'],
        ['/v1/products/metadata/async', { codes: ['a'], metadata: {} }, 'source_ids is required'],
      ]);
    });
  });

  describe('with no body, or nothing to update', () => {
    /** Issue 27: the real API accepts these as jobs with nothing to do. */
    it('accepts every bulk endpoint without a body, with {}, [] or an empty key list: a job that ends SUCCESS with nothing done', async () => {
      const cases: Array<[string, unknown, string]> = [];
      for (const [objects, prefix, keys] of [
        ['customers', 'CUSTOMERS', 'source_ids'],
        ['products', 'PRODUCTS', 'source_ids'],
        ['vouchers', 'VOUCHERS', 'codes'],
      ] as const) {
        for (const body of [undefined, {}, null, []])
          cases.push([`/v1/${objects}/bulk/async`, body, `${prefix}.BULK_UPDATE`]);
        for (const body of [undefined, {}, null, { [keys]: [], metadata: {} }])
          cases.push([`/v1/${objects}/metadata/async`, body, `${prefix}.METADATA_UPDATE`]);
      }
      for (const [path, body, type] of cases) {
        const res = await server.request(
          'POST',
          path,
          body === undefined ? {} : { raw: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } },
        );
        assert.equal(res.status, 202, `${path} ${JSON.stringify(body)}: ${res.text}`);
        const job = await ended(path, res.body, type, 'SUCCESS');
        assert.deepEqual(job.result, resultOf(job, 0, []), path);
      }
    });

    it('the official client: products.bulkUpdateMetadata({}) and bulkUpdate([]) answer an async action', async () => {
      const metadata = await client.products.bulkUpdateMetadata({} as never);
      assert.deepEqual(
        (await ended('/v1/products/metadata/async', metadata, 'PRODUCTS.METADATA_UPDATE', 'SUCCESS')).result.done_count,
        0,
      );
      const bulk = await client.products.bulkUpdate([]);
      assert.deepEqual(
        (await ended('/v1/products/bulk/async', bulk, 'PRODUCTS.BULK_UPDATE', 'SUCCESS')).result.done_count,
        0,
      );
    });
  });

  describe('vouchers', () => {
    before(async () => {
      for (const [code, metadata] of [
        ['BV-1', { keep: 'x', over: 1 }],
        ['BV-2', {}],
        ['MV-1', { lang: 'pl' }],
        ['MV-2', {}],
      ] as const) {
        const res = await server.request('POST', `/v1/vouchers/${code}`, {
          body: { type: 'DISCOUNT_VOUCHER', discount: percentDiscount, metadata },
        });
        assert.equal(res.status, 200);
      }
    });

    it("merges each entry's metadata into its voucher, and fails unknown codes and bad entries alone", async () => {
      const before = await get('/v1/vouchers/BV-1');
      const accepted = await client.vouchers.bulkUpdate([
        { code: 'BV-1', metadata: { over: 2, added: true } },
        { code: 'BV-2', metadata: { tier: 'gold' } },
        { code: 'BV-NONE', metadata: { a: 1 } },
        { code: 'BV-2', metadata: 'no' as never },
        { metadata: { a: 1 } } as never,
      ]);
      const job = await ended('/v1/vouchers/bulk/async', accepted, 'VOUCHERS.BULK_UPDATE', 'FAILED');
      assert.deepEqual(
        job.result,
        resultOf(job, 2, [
          notFoundVoucher('BV-NONE'),
          invalid('metadata must be an object', { code: 'BV-2' }),
          invalid('code is required'),
        ]),
      );
      const after = await get('/v1/vouchers/BV-1');
      assert.deepEqual(after, {
        ...before,
        metadata: { keep: 'x', over: 2, added: true },
        updated_at: after.updated_at,
      });
      assert.notEqual(after.updated_at, before.updated_at);
      assert.deepEqual((await get('/v1/vouchers/BV-2')).metadata, { tier: 'gold' });
      assert.equal((await server.request('GET', '/v1/vouchers/BV-NONE')).status, 404);
    });

    it('merges one metadata into every named voucher; unknown codes fail', async () => {
      const metadata = { lang: 'en', authorized_internally: true };
      const accepted = await client.vouchers.bulkUpdateMetadata({ codes: ['MV-1', 'MV-2', 'MV-NONE'], metadata });
      const job = await ended('/v1/vouchers/metadata/async', accepted, 'VOUCHERS.METADATA_UPDATE', 'FAILED');
      assert.deepEqual(job.result, resultOf(job, 2, [notFoundVoucher('MV-NONE')]));
      assert.deepEqual((await get('/v1/vouchers/MV-1')).metadata, metadata);
      assert.deepEqual((await get('/v1/vouchers/MV-2')).metadata, metadata);
    });

    it('refuses a malformed request with 400 before any job starts, writing nothing', async () => {
      await assertRefused([
        ['/v1/vouchers/bulk/async', { code: 'BV-1', metadata: {} }, 'The body must be a JSON array of vouchers'],
        ['/v1/vouchers/bulk/async', [{ code: 'BV-1', metadata: {} }, 7], '[1] must be an object'],
        ['/v1/vouchers/metadata/async', 'codes', 'The body must be a JSON object'],
        ['/v1/vouchers/metadata/async', { codes: [null], metadata: { a: 1 } }, 'codes[0] must be a string'],
        ['/v1/vouchers/metadata/async', { source_ids: ['MV-1'], metadata: {} }, 'codes is required'],
      ]);
    });
  });
});
