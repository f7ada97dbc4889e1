import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requestCancel } from '../../src/jobs/cancel.service.js';
import { internalActor } from '../../src/lib/actor.js';
import { startImportStaging } from '../../src/modules/vouchers/voucher-import.service.js';
import { runCli, spawnServe, type SpawnedServer } from '../support/cli.js';
import { freshDatabase } from '../support/engine.js';
import { openRows } from '../support/sqlite.js';
import { discountCampaign } from '../support/factories.js';
import type { EndedJob } from '../support/jobs.js';
import { startTestServer, type TestServer } from '../support/server.js';

const ENV = { PROMO_APP_ID: 'cancel-app', PROMO_APP_TOKEN: 'cancel-token' };
const COUNT = 1_000_000;

const ended = (id: string, status: string) => ({
  code: 409,
  key: 'job_already_ended',
  message: 'Job already ended',
  details: `Async action ${id} already ended ${status}`,
});

describe('promo jobs cancel, with the job running in a promo serve', () => {
  let server: SpawnedServer;
  let file: string;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'X-App-Id': ENV.PROMO_APP_ID, 'X-App-Token': ENV.PROMO_APP_TOKEN, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as T;
  };
  const vouchersInFile = () => {
    const sqlite = openRows(file);
    try {
      return (sqlite.prepare('SELECT count(*) AS n FROM vouchers').get() as { n: number }).n;
    } finally {
      sqlite.close();
    }
  };
  before(async () => {
    file = await freshDatabase();
    server = await spawnServe(['--db', file, '--workers', '1'], ENV);
  });
  after(async () => {
    assert.equal(await server.stop('SIGTERM'), 0);
  });

  it('stops the generation at its next portion: FAILED, the campaign FAILED, nothing written after', async () => {
    await call('POST', '/v1/campaigns', discountCampaign('Long'));
    const { async_action_id: id } = await call<{ async_action_id: string }>(
      'POST',
      `/v1/campaigns/Long/vouchers?vouchers_count=${COUNT}`,
      {},
    );
    while ((await call<EndedJob>('GET', `/v1/async-actions/${id}`)).progress < 1)
      await new Promise((r) => setTimeout(r, 20));

    const res = await runCli(['jobs', 'cancel', id, '--db', file]);
    const done = Number(/^Canceled by the operator after (\d+) of 1000000 items\.\n$/.exec(res.stdout)?.[1]);
    assert.deepEqual([res.code, res.stderr], [0, '']);
    assert.ok(done >= 10_000 && done < COUNT, res.stdout);
    const job = await call<EndedJob>('GET', `/v1/async-actions/${id}`);
    assert.deepEqual(
      [job.status, job.operation_status, job.progress, job.result],
      [
        'FAILED',
        'FAILED',
        Math.floor((done * 100) / COUNT),
        { message: `Canceled by the operator after ${done} of ${COUNT} items.`, done_count: done, failed_count: 0 },
      ],
    );
    const campaign = await call<{ vouchers_count: number; vouchers_generation_status: string }>(
      'GET',
      '/v1/campaigns/Long',
    );
    assert.deepEqual(
      [campaign.vouchers_generation_status, campaign.vouchers_count, vouchersInFile()],
      ['FAILED', done, done],
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(vouchersInFile(), done, 'vouchers were written after the cancel');

    const again = await runCli(['jobs', 'cancel', id, '--db', file]);
    assert.deepEqual([again.code, again.stdout, JSON.parse(again.stderr)], [1, '', ended(id, 'FAILED')]);
  });
});

describe('promo jobs cancel, with nobody running the job', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Idle') });
  });
  after(() => server.close());

  it("ends the job itself, running the step's fail, and prints the async action with --json", async () => {
    const id = (await server.request('POST', '/v1/campaigns/Idle/vouchers?vouchers_count=500', { body: {} })).body
      .async_action_id as string;
    const res = await runCli(['jobs', 'cancel', id, '--json', '--db', server.dbFile]);
    assert.deepEqual([res.code, res.stderr], [0, '']);
    const job = (await server.request('GET', `/v1/async-actions/${id}`)).body;
    assert.deepEqual(JSON.parse(res.stdout), job);
    assert.deepEqual(
      [job.status, job.operation_status, job.result],
      [
        'FAILED',
        'FAILED',
        { message: 'Canceled by the operator after 0 of 500 items.', done_count: 0, failed_count: 0 },
      ],
    );
    const campaign = (await server.request('GET', '/v1/campaigns/Idle')).body;
    assert.deepEqual([campaign.vouchers_generation_status, campaign.vouchers_count], ['FAILED', 0]);
  });

  it('refuses an unknown job and one that already ended (exit 1)', async () => {
    const missing = await runCli(['jobs', 'cancel', 'aa_nope', '--db', server.dbFile]);
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
    const id = (await server.request('GET', '/v1/async-actions?limit=1')).body.async_actions[0].id as string;
    const again = await runCli(['jobs', 'cancel', id, '--db', server.dbFile]);
    assert.deepEqual([again.code, again.stdout, JSON.parse(again.stderr)], [1, '', ended(id, 'FAILED')]);
  });

  it("ends a staged import at once, and refuses its writer's next batch", async () => {
    const staging = await startImportStaging(server.deps, 'Idle', internalActor());
    await staging.add([{ code: 'ST-1' }]);
    await requestCancel(server.deps, staging.jobId);
    const job = (await server.request('GET', `/v1/async-actions/${staging.jobId}`)).body;
    assert.deepEqual(
      [job.status, job.operation_status, job.result],
      [
        'FAILED',
        'FAILED',
        { message: 'Canceled by the operator before all of its items were read.', done_count: 0, failed_count: 0 },
      ],
    );
    await assert.rejects(staging.add([{ code: 'ST-2' }]), {
      name: 'AppError',
      key: 'job_already_ended',
      details: `Async action ${staging.jobId} ended before all of its items were read`,
    });
    await assert.rejects(staging.seal(), { key: 'job_already_ended' });
  });
});
