import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { requestCancel } from '../../src/jobs/cancel.service.js';
import { fixedClock } from '../../src/lib/clock.js';
import { exportsDirectory } from '../../src/modules/exports/exports.service.js';
import { dbFingerprint } from '../support/db.js';
import { onPostgres } from '../support/engine.js';
import { testRunner } from '../support/jobs.js';
import { assertMatchesReference } from '../support/openapi.js';
import { errorBody, notFoundBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2024-07-01T00:00:00.000Z';

/** An export's life (SCHEDULED, DONE, deleted), the list, and every refusal with its whole body. */
describe('exports: status, list, download, delete and refusals', () => {
  let server: TestServer;
  const clock = fixedClock(NOW);
  before(async () => {
    server = await startTestServer({ clock });
    await server.request('POST', '/v1/customers', { body: { source_id: 'only', name: 'Only' } });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const exportOf = (id: string, createdAt: string, status: string, parameters: Record<string, unknown>) => ({
    id,
    object: 'export',
    created_at: createdAt,
    status,
    channel: 'API',
    exported_object: 'customer',
    parameters,
    result: status === 'DONE' ? { url: `${server.url}/v1/exports/${id}/download` } : null,
    user_id: null,
  });

  const refused = async (
    request: () => Promise<TestResponse>,
    status: number,
    fields: { key: string; message: string; details: string },
  ) => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const res = await request();
    assert.deepEqual([res.status, res.body], [status, errorBody(res, { code: status, ...fields })]);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  };

  it('is SCHEDULED until a runner takes it, DONE after, listed by date or status, and deleted with its file', async () => {
    const first = await server.request('POST', '/v1/exports', {
      body: { exported_object: 'customer', parameters: { order: '-created_at', fields: ['id'] } },
    });
    clock.advance(1000);
    const second = await server.request('POST', '/v1/exports', { body: { exported_object: 'customer' } });
    const [a, b] = [first.body.id as string, second.body.id as string];
    const scheduledA = exportOf(a, NOW, 'SCHEDULED', { order: '-created_at', fields: ['id'] });
    const scheduledB = exportOf(b, '2024-07-01T00:00:01.000Z', 'SCHEDULED', { fields: ['name', 'source_id'] });
    assert.deepEqual([first.status, first.body, second.body], [200, scheduledA, scheduledB]);
    assert.deepEqual((await server.request('GET', `/v1/exports/${a}`)).body, scheduledA);
    await refused(() => server.request('GET', `/v1/exports/${a}/download`), 409, {
      key: 'export_not_ready',
      message: 'Export not ready',
      details: `Export ${a} is SCHEDULED; its file is served once it is DONE`,
    });
    const listed = await server.request('GET', '/v1/exports');
    assert.deepEqual(listed.body, { object: 'list', data_ref: 'exports', exports: [scheduledB, scheduledA], total: 2 });
    assertMatchesReference('GET', '/v1/exports', 200, listed.body);

    const runner = testRunner(server.deps);
    try {
      await waitUntil(
        async () =>
          (await server.request('GET', `/v1/exports/${b}`)).body.status === 'DONE' &&
          (await server.request('GET', `/v1/exports/${a}`)).body.status === 'DONE',
      );
    } finally {
      await runner.stop();
    }
    const [doneA, doneB] = [
      exportOf(a, NOW, 'DONE', scheduledA.parameters),
      exportOf(b, scheduledB.created_at, 'DONE', scheduledB.parameters),
    ];
    assert.deepEqual((await server.request('GET', '/v1/exports?order=created_at')).body.exports, [doneA, doneB]);
    assert.deepEqual((await server.request('GET', '/v1/exports?order=-status&limit=1&page=2')).body, {
      object: 'list',
      data_ref: 'exports',
      exports: [doneA],
      total: 2,
    });
    assert.equal(
      (await server.request('GET', `/v1/exports/${a}/download`)).text,
      `id\r\n${(await server.request('GET', '/v1/customers/only')).body.id}\r\n`,
    );

    // A SQLite file keeps its exports beside it; a URL's test server gives them a temp folder.
    if (!onPostgres()) assert.equal(server.deps.exportsDir, exportsDirectory(server.dbFile));
    const file = join(server.deps.exportsDir, `${a}.csv`);
    assert.ok(existsSync(file));
    const deleted = await server.request('DELETE', `/v1/exports/${a}`);
    assert.deepEqual([deleted.status, deleted.text], [204, '']);
    assert.equal(existsSync(file), false);
    for (const [method, path] of [
      ['GET', `/v1/exports/${a}`],
      ['DELETE', `/v1/exports/${a}`],
      ['GET', `/v1/exports/${a}/download`],
    ] as const) {
      const res = await server.request(method, path);
      assert.deepEqual([res.status, res.body], [404, notFoundBody(res, 'export', a)]);
    }
    assert.deepEqual((await server.request('GET', '/v1/exports')).body, {
      object: 'list',
      data_ref: 'exports',
      exports: [doneB],
      total: 1,
    });
    // A file removed by hand from the exports directory: the download is 404, the export stays.
    rmSync(join(server.deps.exportsDir, `${b}.csv`));
    const gone = await server.request('GET', `/v1/exports/${b}/download`);
    assert.deepEqual([gone.status, gone.body], [404, notFoundBody(gone, 'export_file', b)]);
  });

  it('ends ERROR when its job is canceled: no url, no download', async () => {
    const created = await server.request('POST', '/v1/exports', { body: { exported_object: 'order' } });
    const id = created.body.id as string;
    const jobId = (
      sqliteOf(server.deps).prepare('SELECT async_action_id AS a FROM exports WHERE id = ?').get(id) as { a: string }
    ).a;
    await requestCancel(server.deps, jobId);
    const runner = testRunner(server.deps);
    try {
      await waitUntil(async () => (await server.request('GET', `/v1/exports/${id}`)).body.status === 'ERROR');
    } finally {
      await runner.stop();
    }
    const errored = { ...created.body, status: 'ERROR' };
    assert.deepEqual((await server.request('GET', `/v1/exports/${id}`)).body, errored);
    assertMatchesReference('GET', '/v1/exports/{exportId}', 200, errored);
    const action = await server.request('GET', `/v1/async-actions/${jobId}`);
    assert.deepEqual(
      [action.body.type, action.body.status, action.body.result],
      ['EXPORT', 'FAILED', { message: 'Canceled by the operator after 0 of 0 items.', done_count: 0, failed_count: 0 }],
    );
    await refused(() => server.request('GET', `/v1/exports/${id}/download`), 409, {
      key: 'export_not_ready',
      message: 'Export not ready',
      details: `Export ${id} is ERROR; its file is served once it is DONE`,
    });
  });

  it('refuses a body of the wrong shape (invalid_payload) and parameters that do not fit the object (invalid_export_params)', async () => {
    const post = (body: unknown) => () => server.request('POST', '/v1/exports', { body });
    const payload = (details: string) => ({ key: 'invalid_payload', message: 'Invalid payload', details });
    const params = (details: string) => ({ key: 'invalid_export_params', message: 'Invalid export params', details });
    await refused(post(5), 400, payload('The body must be a JSON object'));
    await refused(post({}), 400, payload('exported_object is required'));
    await refused(
      post({ exported_object: 'publication' }),
      400,
      payload(
        'exported_object must be one of: voucher, redemption, customer, order, points_expiration, voucher_transactions',
      ),
    );
    await refused(
      post({ exported_object: 'order', parameters: { fields: 'id', extra: 1 } }),
      400,
      payload('parameters.fields must be an array; parameters holds unknown keys: extra'),
    );
    await refused(
      post({ exported_object: 'order', parameters: { fields: ['id', 'code', 'id'] } }),
      400,
      params(
        'Unknown fields: code; allowed: id, source_id, status, customer_id, referrer_id, amount, discount_amount, items_discount_amount, total_amount, created_at, updated_at, total_discount_amount, metadata, metadata.<key>',
      ),
    );
    await refused(
      post({ exported_object: 'order', parameters: { fields: ['id', 'status', 'id'] } }),
      400,
      params('Fields named twice: id'),
    );
    await refused(
      post({ exported_object: 'order', parameters: { order: 'code' } }),
      400,
      params('parameters.order must be one of: created_at, -created_at, id, -id'),
    );
    await refused(
      post({ exported_object: 'order', parameters: { filters: { code: { conditions: { $is: 'x' } } } } }),
      400,
      params(
        'parameters.filters.code is not a known field; allowed: id, source_id, status, customer_id, referrer_id, amount, discount_amount, items_discount_amount, total_amount, created_at, updated_at, total_discount_amount, metadata, metadata.<key>',
      ),
    );
    await refused(
      post({
        exported_object: 'order',
        parameters: { filters: { amount: { conditions: { $more_than: 'ten' } }, junction: 'maybe' } },
      }),
      400,
      params(
        'parameters.filters.junction is required and must be "and" or "or"; parameters.filters.amount.conditions.$more_than must be an array of exactly one number',
      ),
    );
  });

  it('refuses unknown exports and list queries out of range', async () => {
    for (const [method, path] of [
      ['GET', '/v1/exports/exp_nope'],
      ['DELETE', '/v1/exports/exp_nope'],
      ['GET', '/v1/exports/exp_nope/download'],
    ] as const) {
      const before = dbFingerprint(sqliteOf(server.deps));
      const res = await server.request(method, path);
      assert.deepEqual([res.status, res.body], [404, notFoundBody(res, 'export', 'exp_nope')]);
      assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
    }
    const query = (details: string) => ({ key: 'invalid_query_params', message: 'Invalid query params', details });
    await refused(
      () => server.request('GET', '/v1/exports?limit=101'),
      400,
      query('Query parameter limit must be between 1 and 100'),
    );
    // An order the list does not know is ignored (the real API answers it): the default order.
    const unknownOrder = await server.request('GET', '/v1/exports?order=name');
    assert.deepEqual(
      [unknownOrder.status, unknownOrder.body],
      [200, (await server.request('GET', '/v1/exports')).body],
    );
  });
});

async function waitUntil(test: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (await test()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail('timed out');
}
