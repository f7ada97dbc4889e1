import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { runCli } from '../support/cli.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('promo jobs', () => {
  let server: TestServer;
  const ids: string[] = [];
  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Watch') });
    ids.push(
      (await server.request('POST', '/v1/campaigns/Watch/vouchers?vouchers_count=120', { body: {} })).body
        .async_action_id,
    );
    ids.push(
      (await server.request('POST', '/v1/campaigns/Watch/import', { body: [{ code: 'W-1' }, { code: 'W-1' }] })).body
        .async_action_id,
    );
    const runner = testRunner(server.deps);
    try {
      for (const id of ids) await waitForJob(server, id);
    } finally {
      await runner.stop();
    }
    ids.push(
      (await server.request('POST', '/v1/campaigns/Watch/vouchers?vouchers_count=7', { body: {} })).body
        .async_action_id,
    );
  });
  after(() => server.close());

  it('prints the list as GET /v1/async-actions answers it, with --json', async () => {
    const res = await runCli(['jobs', '--json', '--db', server.dbFile]);
    assert.deepEqual([res.code, res.stderr], [0, '']);
    assert.deepEqual(JSON.parse(res.stdout), (await server.request('GET', '/v1/async-actions?limit=20')).body);
    const one = await runCli(['jobs', '--json', '--limit', '1', '--db', server.dbFile]);
    assert.deepEqual(JSON.parse(one.stdout), (await server.request('GET', '/v1/async-actions?limit=1')).body);
  });

  it('draws one frame of the view with --once', async () => {
    const res = await runCli(['jobs', '--once', '--db', server.dbFile]);
    assert.deepEqual([res.code, res.stderr], [0, '']);
    const lines = res.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.trimEnd());
    assert.equal(lines[0], 'promo jobs: 3 async action(s)');
    assert.match(lines[1] as string, /^ {2}ID +TYPE +STATUS +PROGRESS +DONE +FAILED +RATE +ETA$/);
    assert.match(
      lines[2] as string,
      new RegExp(`^› ${ids[2]} +CAMPAIGN\\.VOUCHERS_GENERATE ENQUEUED +░{20} +0% +0 +0 +- -$`),
    );
    assert.match(
      lines[3] as string,
      new RegExp(`^  ${ids[1]} +CAMPAIGN\\.VOUCHERS_IMPORT +DONE +█{20} 100% +1 +1 +[\\d,]+/s -$`),
    );
    assert.match(
      lines[4] as string,
      new RegExp(`^  ${ids[0]} +CAMPAIGN\\.VOUCHERS_GENERATE DONE +█{20} 100% +120 +0 +[\\d,]+/s -$`),
    );
    assert.equal(lines.length, 5);
  });

  it('is a usage error with a bad --limit', async () => {
    assert.deepEqual(await runCli(['jobs', '--limit', '0', '--db', server.dbFile]), {
      code: 2,
      stdout: '',
      stderr: 'error: --limit must be an integer from 1 to 100\n',
    });
  });
});
