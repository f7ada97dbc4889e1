import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint, tempDir } from '../support/db.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertAsyncActionMatchesReference, assertMatchesReference } from '../support/openapi.js';
import { serverSideClient } from '../support/sdk.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';
import { uploadFile } from '../support/upload.js';
import { sqliteOf } from '../support/sqlite.js';

/** POST /v1/products/importCSV and /v1/skus/importCSV: the PRODUCTS.IMPORT_CSV and SKUS.IMPORT_CSV jobs. */
describe('products and SKUs CSV imports', () => {
  let server: TestServer;
  let runner: ReturnType<typeof testRunner>;
  before(async () => {
    server = await startTestServer();
    runner = testRunner(server.deps);
    await server.request('POST', '/v1/products', { body: { source_id: 'csv-old', name: 'Old name', price: 100 } });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await runner.stop();
    await server.close();
  });

  it('imports products through the official client: lists of attributes, metadata columns, updates by source_id', async () => {
    const file = join(tempDir(), 'products.csv');
    writeFileSync(
      file,
      [
        '\uFEFFsource_id,price,Name,attributes,image_url,vendor',
        'csv-tee,2500,"Tee, cotton","color, size",https://img.example/tee.png,Acme',
        'csv-old,150,New name,,,',
        'csv-no-name,100,,,,',
        'csv-bad-price,12.5,Bad price,,,',
        'csv-dup,1,"Tee, cotton",,,',
      ].join('\n'),
    );
    const answer = await serverSideClient(server).products.importCSV(file);
    assertMatchesReference('POST', '/v1/products/importCSV', 200, answer);
    const job = await waitForJob(server, answer.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual([job.type, job.status, job.operation_status], ['PRODUCTS.IMPORT_CSV', 'DONE', 'FAILED']);
    assert.deepEqual(job.result, {
      message: '2 product(s) imported successfully, 3 failed.',
      failed: [
        { source_id: 'csv-no-name', row: 3, reason: 'name is a required field' },
        { source_id: 'csv-bad-price', row: 4, reason: 'price must be an integer or null' },
        { source_id: 'csv-dup', row: 5, reason: 'Duplicated product exists with name Tee, cotton' },
      ],
      done_count: 2,
      failed_count: 3,
      reports: [`/v1/async-actions/${job.id}/failures`],
    });
    const tee = (await server.request('GET', '/v1/products/csv-tee')).body;
    assert.deepEqual(tee, {
      id: tee.id,
      source_id: 'csv-tee',
      name: 'Tee, cotton',
      price: 2500,
      attributes: ['color', 'size'],
      metadata: { vendor: 'Acme' },
      image_url: 'https://img.example/tee.png',
      created_at: tee.created_at,
      updated_at: null,
      object: 'product',
      skus: { object: 'list', data_ref: 'data', data: [], total: 0 },
    });
    const old = (await server.request('GET', '/v1/products/csv-old')).body;
    assert.deepEqual([old.name, old.price], ['New name', 150]);
  });

  it('imports SKUs of products named by id or source_id, with JSON or unquoted attribute objects', async () => {
    const tee = (await server.request('GET', '/v1/products/csv-tee')).body;
    const csv = [
      'product_id,source_id,sku,price,attributes,weight',
      `${tee.id},csv-tee-red,Red,2600,"{""color"":""red""}",0.2`,
      'csv-tee,csv-tee-blue,Blue,,"{color:blue,size:M}",',
      'csv-tee,,No source,,,',
      'prod_nope,csv-orphan,Orphan,,,',
      'csv-tee,csv-tee-shape,Shape,,"{shape:round}",',
    ].join('\n');
    const res = await uploadFile(server, '/v1/skus/importCSV', csv);
    assert.equal(res.status, 200);
    assertMatchesReference('POST', '/v1/skus/importCSV', 200, res.body);
    const job = await waitForJob(server, res.body.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual(job.result, {
      message: '2 sku(s) imported successfully, 3 failed.',
      failed: [
        { row: 3, reason: 'source_id is a required field' },
        { source_id: 'csv-orphan', row: 4, reason: 'Cannot find product with id prod_nope' },
        {
          source_id: 'csv-tee-shape',
          row: 5,
          reason: `attributes: product ${tee.id} does not declare shape (it declares: color, size)`,
        },
      ],
      done_count: 2,
      failed_count: 3,
      reports: [`/v1/async-actions/${job.id}/failures`],
    });
    const red = (await server.request('GET', '/v1/skus/csv-tee-red')).body;
    assert.deepEqual(red, {
      id: red.id,
      source_id: 'csv-tee-red',
      product_id: tee.id,
      sku: 'Red',
      price: 2600,
      currency: null,
      attributes: { color: 'red' },
      image_url: null,
      metadata: { weight: '0.2' },
      created_at: red.created_at,
      updated_at: null,
      object: 'sku',
    });
    const blue = (await server.request('GET', '/v1/skus/csv-tee-blue')).body;
    assert.deepEqual([blue.sku, blue.price, blue.attributes], ['Blue', null, { color: 'blue', size: 'M' }]);
  });

  it('refuses an upload without a file part, leaving the database as it was', async () => {
    for (const path of ['/v1/products/importCSV', '/v1/skus/importCSV']) {
      const before = dbFingerprint(sqliteOf(server.deps));
      const res = await uploadFile(server, path, undefined, { fields: { x: '1' } });
      assert.deepEqual(
        res.body,
        errorBody(res, {
          code: 400,
          key: 'invalid_payload',
          message: 'Invalid payload',
          details: 'The request has no file: send the CSV as multipart/form-data in a part named file',
        }),
      );
      assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
    }
  });
});
