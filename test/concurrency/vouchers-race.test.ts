import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { spawnServe, type SpawnedServer } from '../support/cli.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'race-app', PROMO_APP_TOKEN: 'race-token' };

describe('races on vouchers', () => {
  let server: TestServer;
  let other: SpawnedServer;
  before(async () => {
    server = await startTestServer();
    // A second process on the same file, with its own runner and two worker threads.
    other = await spawnServe(['--db', server.dbFile, '--workers', '2'], ENV);
  });
  after(async () => {
    await other.stop('SIGTERM');
    await server.close();
  });

  const viaOther = (method: string, path: string, body?: unknown) => other.request(method, path, body);

  it('gives one code to exactly one of many concurrent requests, across two processes', async () => {
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Race') });
    const attempts = Array.from({ length: 30 }, (_, i) =>
      i % 2 === 0
        ? server.request('POST', '/v1/campaigns/Race/vouchers', { body: { code: 'ONLY-ONE' } }).then((r) => r.status)
        : viaOther('POST', '/v1/campaigns/Race/vouchers', { code: 'ONLY-ONE' }).then((r) => r.status),
    );
    const statuses = await Promise.all(attempts);
    assert.deepEqual([statuses.filter((s) => s === 200).length, statuses.filter((s) => s === 409).length], [1, 29]);
    assert.equal((await server.request('GET', '/v1/campaigns/Race')).body.vouchers_count, 1);
  });

  it('keeps the campaign count exact under concurrent adds and deletes', async () => {
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Counter') });
    const adds = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? server.request('POST', '/v1/campaigns/Counter/vouchers', { body: { code: `K-${i}` } }).then((r) => r.status)
          : viaOther('POST', '/v1/campaigns/Counter/vouchers', { code: `K-${i}` }).then((r) => r.status),
      ),
    );
    assert.ok(adds.every((s) => s === 200));
    const deletes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? server.request('DELETE', `/v1/vouchers/K-${i % 20}`).then((r) => r.status)
          : viaOther('DELETE', `/v1/vouchers/K-${i % 20}`).then((r) => r.status),
      ),
    );
    assert.deepEqual([deletes.filter((s) => s === 204).length, deletes.filter((s) => s === 404).length], [20, 20]);
    const counted = (await server.request('GET', '/v1/campaigns/Counter')).body.vouchers_count;
    const real = (
      sqliteOf(server.deps)
        .prepare(
          "SELECT count(*) AS n FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id WHERE c.name = 'Counter'",
        )
        .get() as { n: number }
    ).n;
    assert.deepEqual([counted, real], [20, 20]);
  });

  it('runs jobs in a small code space with two runners in two processes: exact counts, no duplicates', async () => {
    await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Small', {}, { code_config: { pattern: 'S-###', charset: '0123456789' } }),
    });
    const jobs: string[] = [];
    for (let i = 0; i < 3; i++)
      jobs.push(
        (await server.request('POST', '/v1/campaigns/Small/vouchers?vouchers_count=120', { body: {} })).body
          .async_action_id,
      );
    jobs.push(
      (await viaOther('POST', '/v1/campaigns/Small/vouchers?vouchers_count=100', {})).body.async_action_id as string,
    );
    const runner = testRunner(server.deps, { workers: 2 });
    const singles = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.request('POST', '/v1/campaigns/Small/vouchers', { body: {} }).then((r) => r.status),
      ),
    );
    try {
      for (const id of jobs) assert.equal((await waitForJob(server, id)).status, 'DONE');
    } finally {
      await runner.stop();
    }
    const okSingles = singles.filter((s) => s === 200).length;
    assert.equal(okSingles + singles.filter((s) => s === 400).length, 20);
    const codes = (
      sqliteOf(server.deps)
        .prepare("SELECT v.code FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id WHERE c.name = 'Small'")
        .all() as Array<{ code: string }>
    ).map((r) => r.code);
    assert.deepEqual([codes.length, new Set(codes).size], [460 + okSingles, 460 + okSingles]);
    assert.equal((await server.request('GET', '/v1/campaigns/Small')).body.vouchers_count, 460 + okSingles);
  });
});
