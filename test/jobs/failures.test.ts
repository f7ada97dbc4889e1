import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { jobRegistry } from '../../src/root/job-registry.js';
import { openJobFailures } from '../../src/jobs/failures.service.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/db.js';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob, type EndedJob } from '../support/jobs.js';
import { assertAsyncActionMatchesReference } from '../support/openapi.js';
import { notFoundBody, startTestServer, type TestServer } from '../support/server.js';

const TAKEN = 250;
const codes = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ code: `${prefix}-${i}` }));
const taken = (code: string) => ({ code, reason: `Voucher with code ${code} already exists` });
const allFailures = codes('C', TAKEN).map(({ code }) => taken(code));

describe('an import with more failures than its result lists', () => {
  let server: TestServer;
  let job: EndedJob;
  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Cap') });
    const runner = testRunner(server.deps);
    try {
      await waitForJob(
        server,
        (await server.request('POST', '/v1/campaigns/Cap/import', { body: codes('C', TAKEN) })).body.async_action_id,
      );
      const again = await server.request('POST', '/v1/campaigns/Cap/import', {
        body: [...codes('C', TAKEN), ...codes('N', 10)],
      });
      job = await waitForJob(server, again.body.async_action_id);
    } finally {
      await runner.stop();
    }
  });
  after(() => server.close());

  it('lists the first 100 failures in its result, with the exact counts and the report URL', () => {
    assert.deepEqual([job.status, job.operation_status], ['DONE', 'FAILED']);
    assert.deepEqual(job.result, {
      message: `10 voucher(s) imported successfully, ${TAKEN} failed.`,
      failed: allFailures.slice(0, 100),
      done_count: 10,
      failed_count: TAKEN,
      reports: [`/v1/async-actions/${job.id}/failures`],
    });
    assertAsyncActionMatchesReference(job);
  });

  it('streams every failure as NDJSON from the report URL, to server keys and async-actions tokens only', async () => {
    const res = await server.request('GET', `/v1/async-actions/${job.id}/failures`);
    assert.deepEqual([res.status, res.headers.get('content-type')], [200, 'application/x-ndjson']);
    assert.equal(res.text, allFailures.map((f) => `${JSON.stringify(f)}\n`).join(''));
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const token = async (scope: string) =>
      (
        await server.request('POST', '/v1/oauth/token', {
          raw: `grant_type=client_credentials&scope=${scope}`,
          headers: form,
        })
      ).body.access_token as string;
    const scoped = await server.request('GET', `/v1/async-actions/${job.id}/failures`, {
      auth: { bearer: await token('async-actions') },
    });
    assert.deepEqual([scoped.status, scoped.text], [200, res.text]);
    const other = await server.request('GET', `/v1/async-actions/${job.id}/failures`, {
      auth: { bearer: await token('vouchers') },
    });
    assert.deepEqual([other.status, other.body.key], [403, 'missing_required_permission']);
    assert.equal((await server.request('GET', `/v1/async-actions/${job.id}/failures`, { auth: 'none' })).status, 401);
  });

  it('answers 404 for an unknown job, and an empty report for a job without failures', async () => {
    const missing = await server.request('GET', '/v1/async-actions/aa_nope/failures');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, notFoundBody(missing, 'async_action', 'aa_nope'));
    const first = (await server.request('GET', '/v1/async-actions?limit=2')).body.async_actions[1].id as string;
    const empty = await server.request('GET', `/v1/async-actions/${first}/failures`);
    assert.deepEqual([empty.status, empty.text], [200, '']);
  });

  it('reads the failures a page at a time', async () => {
    const pages: Array<Array<Record<string, string | number>>> = [];
    for await (const page of await openJobFailures(server.deps, jobRegistry, job.id, 7)) pages.push(page);
    assert.deepEqual(
      pages.map((p) => p.length),
      [...Array(35).fill(7), 5],
    );
    assert.deepEqual(pages.flat(), allFailures);
  });

  it('prints them with promo jobs --failures: lines, or the same NDJSON with --json', async () => {
    const lines = await runCli(['jobs', '--failures', job.id, '--db', server.dbFile]);
    assert.deepEqual(lines, {
      code: 0,
      stdout: allFailures.map((f) => `  ${f.code}: ${f.reason}\n`).join(''),
      stderr: '',
    });
    const json = await runCli(['jobs', '--failures', job.id, '--json', '--db', server.dbFile]);
    assert.deepEqual(json, {
      code: 0,
      stdout: (await server.request('GET', `/v1/async-actions/${job.id}/failures`)).text,
      stderr: '',
    });
    const missing = await runCli(['jobs', '--failures', 'aa_nope', '--db', server.dbFile]);
    assert.deepEqual(
      [missing.code, missing.stdout, JSON.parse(missing.stderr)],
      [
        1,
        '',
        {
          code: 404,
          key: 'not_found',
          message: 'Resource not found',
          details: 'Cannot find async_action with id aa_nope',
          resource_id: 'aa_nope',
          resource_type: 'async_action',
        },
      ],
    );
  });

  it('lists every failure, not only the first 100, when promo import ends', async () => {
    const file = join(tempDir(), 'again.json');
    writeFileSync(file, JSON.stringify(codes('C', 150)));
    const res = await runCli(['import', file, '--type', 'vouchers', '--campaign', 'Cap', '--db', server.dbFile]);
    assert.equal(res.code, 1);
    assert.equal(
      res.stdout,
      [
        '0 voucher(s) imported successfully, 150 failed.\n',
        ...allFailures.slice(0, 150).map((f) => `  ${f.code}: ${f.reason}\n`),
      ].join(''),
    );
  });
});
