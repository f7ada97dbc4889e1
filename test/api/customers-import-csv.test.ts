import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint, tempDir } from '../support/db.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertAsyncActionMatchesReference, assertMatchesReference } from '../support/openapi.js';
import { serverSideClient } from '../support/sdk.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';
import { uploadChunked, uploadFile } from '../support/upload.js';
import { customerObject } from '../modules/customers/fixtures.js';
import { assertCustomerObject } from '../modules/customers/reference.js';
import { onPostgres } from '../support/engine.js';
import { sqliteOf } from '../support/sqlite.js';

/**
 * The page cache of the API's connection (SQLite: shared by requests, shrunk while an upload
 * stages); PostgreSQL stages on pooled connections and keeps no cache of ours: none.
 */
const apiCacheSize = (server: TestServer): unknown =>
  onPostgres() ? undefined : sqliteOf(server.deps).pragma('cache_size', { simple: true });

/**
 * A CSV as spreadsheets write it: a BOM, CRLF lines, the header in its own column order, a
 * quoted field with a comma, doubled quotes and a newline, a metadata column, and bad rows.
 */
const CSV = [
  '\uFEFFEmail,Source_id,Name,Address_City,Address_Postal_Code,Birthdate,tier,Description',
  'ann@example.com,csv-ann,"Smith, Ann",Berlin,10115,1990-01-31,gold,"She said ""hi""',
  'on two lines"',
  'not-an-email,csv-bad-email,Bob,,,,,',
  'cid@example.com,csv-existing,Cid Updated,,,,silver,',
  ',csv-bad-date,Dan,,,1990-02-30,,',
  '',
  'eve@example.com,,Eve,,,,,',
].join('\r\n');

describe('POST /v1/customers/importCSV', () => {
  let server: TestServer;
  let runner: ReturnType<typeof testRunner>;
  before(async () => {
    server = await startTestServer();
    runner = testRunner(server.deps);
    await server.request('POST', '/v1/customers', { body: { source_id: 'csv-existing', name: 'Cid', phone: '555' } });
  });
  after(async () => {
    await runner.stop();
    await server.close();
  });

  it('imports the rows through the official client, upserting by source_id and reporting each bad row', async () => {
    const file = join(tempDir(), 'customers.csv');
    writeFileSync(file, CSV);
    const answer = await serverSideClient(server).customers.importCSV(file);
    assert.deepEqual(Object.keys(answer), ['async_action_id']);
    assertMatchesReference('POST', '/v1/customers/importCSV', 202, answer);
    const job = await waitForJob(server, answer.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual(
      [job.type, job.status, job.operation_status, job.progress],
      ['CUSTOMERS.IMPORT_CSV', 'DONE', 'FAILED', 100],
    );
    assert.deepEqual(job.result, {
      message: '3 customer(s) imported successfully, 2 failed.',
      failed: [
        { source_id: 'csv-bad-email', row: 2, reason: 'email must be a valid e-mail address' },
        { source_id: 'csv-bad-date', row: 4, reason: 'birthdate must be a date in YYYY-MM-DD format' },
      ],
      done_count: 3,
      failed_count: 2,
      reports: [`/v1/async-actions/${job.id}/failures`],
    });
    const ann = (await server.request('GET', '/v1/customers/csv-ann')).body;
    assertCustomerObject(ann);
    assert.deepEqual(
      ann,
      customerObject({
        id: ann.id,
        created_at: ann.created_at,
        source_id: 'csv-ann',
        name: 'Smith, Ann',
        email: 'ann@example.com',
        birthdate: '1990-01-31',
        description: 'She said "hi"\r\non two lines',
        address: { city: 'Berlin', postal_code: '10115' },
        metadata: { tier: 'gold' },
      }),
    );
    const cid = (await server.request('GET', '/v1/customers/csv-existing')).body;
    assert.deepEqual(
      [cid.name, cid.phone, cid.email, cid.metadata],
      ['Cid Updated', '555', 'cid@example.com', { tier: 'silver' }],
    );
    const list = (await server.request('GET', '/v1/customers?limit=100')).body.customers as Array<{
      name: string;
      source_id?: string;
    }>;
    assert.deepEqual(list.map((c) => c.name).sort(), ['Cid Updated', 'Eve', 'Smith, Ann']);
    assert.equal((await server.request('GET', '/v1/customers/csv-bad-email')).status, 404);
  });

  it('streams the failures report with each failure row', async () => {
    const cacheSize = apiCacheSize(server);
    // x4's row is shorter than the header: its missing cells are absent fields.
    const res = await uploadFile(
      server,
      '/v1/customers/importCSV',
      'source_id,email\nx1,bad\nx2,ok@example.com\nx3,worse\nx4\n',
    );
    assert.equal(res.status, 202);
    // On SQLite uploads stage on the API's shared connection: two at once leave its page cache as it was.
    const many = (prefix: string) =>
      `source_id\n${Array.from({ length: 3000 }, (_, i) => `${prefix}-${i}`).join('\n')}\n`;
    const both = await Promise.all([
      uploadFile(server, '/v1/customers/importCSV', many('p')),
      uploadFile(server, '/v1/customers/importCSV', many('q')),
    ]);
    assert.deepEqual(
      both.map((r) => r.status),
      [202, 202],
    );
    assert.equal(apiCacheSize(server), cacheSize);
    for (const r of both) assert.equal((await waitForJob(server, r.body.async_action_id)).result.done_count, 3000);
    const job = await waitForJob(server, res.body.async_action_id);
    assert.equal(job.result.done_count, 2);
    assert.equal((await server.request('GET', '/v1/customers/x4')).body.email, undefined);
    const report = await server.request('GET', `/v1/async-actions/${job.id}/failures`);
    assert.equal(
      report.text,
      [
        '{"source_id":"x1","row":1,"reason":"email must be a valid e-mail address"}',
        '{"source_id":"x3","row":3,"reason":"email must be a valid e-mail address"}',
        '',
      ].join('\n'),
    );
  });

  it('answers a retry with the same Idempotency-Key from the first upload, staging nothing again', async () => {
    const headers = { 'Idempotency-Key': 'csv-upload-1' };
    const first = await uploadFile(server, '/v1/customers/importCSV', 'source_id\nidem-1\n', { headers });
    await waitForJob(server, first.body.async_action_id);
    const before = dbFingerprint(sqliteOf(server.deps));
    const again = await uploadFile(server, '/v1/customers/importCSV', 'source_id\nidem-1\n', { headers });
    assert.deepEqual([again.status, again.body, again.headers.get('idempotent-replayed')], [202, first.body, 'true']);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it('refuses an upload without a file, an empty file, malformed CSV and a non-multipart body, leaving the database as it was', async () => {
    const invalid = (details: string) => ({ code: 400, key: 'invalid_payload', message: 'Invalid payload', details });
    const cases: Array<[() => ReturnType<typeof uploadFile>, ReturnType<typeof invalid>]> = [
      [
        () => uploadFile(server, '/v1/customers/importCSV', undefined, { fields: { note: 'x' } }),
        invalid('The request has no file: send the CSV as multipart/form-data in a part named file'),
      ],
      [
        () => uploadFile(server, '/v1/customers/importCSV', 'a,b', { fileField: 'other' }),
        invalid('The request has no file: send the CSV as multipart/form-data in a part named file'),
      ],
      [() => uploadFile(server, '/v1/customers/importCSV', ''), invalid('The file holds no customers')],
      [() => uploadFile(server, '/v1/customers/importCSV', 'source_id,name\n'), invalid('The file holds no customers')],
      [
        () => uploadFile(server, '/v1/customers/importCSV', 'source_id,name\na,"open\n'),
        invalid(
          'The file is not CSV of customers: Quote Not Closed: the parsing is finished with an opening quote at line 2 (after 0 whole row(s))',
        ),
      ],
      [
        () => uploadFile(server, '/v1/customers/importCSV', 'source_id,name\na,b,c\n'),
        invalid(
          'The file is not CSV of customers: Invalid Record Length: columns length is 2, got 3 on line 2 (after 0 whole row(s))',
        ),
      ],
      [
        () => uploadFile(server, '/v1/customers/importCSV', 'source_id,name\nfine,A\nnul,a\u0000b\n'),
        invalid('Row 2 of the file holds a NUL character (U+0000), which no text field may hold'),
      ],
      [
        () => server.request('POST', '/v1/customers/importCSV', { body: { file: 'x.csv' } }),
        invalid('The request has no file: send the CSV as multipart/form-data in a part named file'),
      ],
    ];
    for (const [send, expected] of cases) {
      const before = dbFingerprint(sqliteOf(server.deps));
      const res = await send();
      assert.deepEqual(
        res.body,
        errorBody(res, {
          code: expected.code,
          key: expected.key,
          message: expected.message,
          details: expected.details,
        }),
        expected.details,
      );
      assert.equal(dbFingerprint(sqliteOf(server.deps)), before, expected.details);
    }
  });

  it('answers 415 for a raw CSV body and 413 for a file over the body limit, leaving the database as it was', async () => {
    const small = await startTestServer({ bodyLimitBytes: 1000 });
    try {
      const before = dbFingerprint(sqliteOf(small.deps));
      const raw = await small.request('POST', '/v1/customers/importCSV', {
        raw: 'source_id\na\n',
        headers: { 'Content-Type': 'text/csv' },
      });
      assert.deepEqual(
        raw.body,
        errorBody(raw, {
          code: 415,
          key: 'unsupported_media_type',
          message: 'Unsupported media type',
          details: 'Content-Type text/csv is not supported; send application/json',
        }),
      );
      const big = await uploadFile(small, '/v1/customers/importCSV', `source_id\n${'a\n'.repeat(600)}`);
      assert.deepEqual(
        big.body,
        errorBody(big, {
          code: 413,
          key: 'payload_too_large',
          message: 'Payload too large',
          details: 'Request body exceeds 1000 bytes',
        }),
      );
      // Sent chunked (no Content-Length), the file part is cut off by the multipart parser's limit.
      const streamed = await uploadChunked(small, '/v1/customers/importCSV', `source_id\n${'a\n'.repeat(600)}`);
      assert.deepEqual(
        streamed.body,
        errorBody(streamed, {
          code: 413,
          key: 'payload_too_large',
          message: 'Payload too large',
          details: 'The file exceeds 1000 bytes',
        }),
      );
      assert.equal(dbFingerprint(sqliteOf(small.deps)), before);
    } finally {
      await small.close();
    }
  });
});
