import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { alternately, twoProcesses } from '../support/two-processes.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'campaign-count-race-app', PROMO_APP_TOKEN: 'campaign-count-race-token' };

/**
 * A campaign's vouchers_count under every writer at once, in two processes on one file (this
 * one with its runner, a spawned `promo serve` with two worker threads): import jobs whose codes
 * overlap each other and the single adds racing them, single adds and deletes through both
 * processes. Each code is inserted once, the import that meets a taken code records it as
 * failed, and the count equals the campaign's rows.
 */
describe("a campaign's voucher count across two processes", () => {
  const pair = twoProcesses(ENV, ['--workers', '2']);

  it('counts exactly the rows under racing imports, adds and deletes', async () => {
    const { server } = pair;
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Counted') });
    for (let i = 0; i < 40; i++)
      assert.equal(
        (await server.request('POST', '/v1/campaigns/Counted/vouchers', { body: { code: `DEL-${i}` } })).status,
        200,
      );
    const via = (i: number, method: string, path: string, body?: unknown) => alternately(pair, i, method, path, body);
    // Two imports of 600 codes that overlap on 200, and 100 single adds of codes among them (50 more once the imports run).
    const codes = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => ({ code: `IMP-${from + k}` }));
    const runner = testRunner(server.deps, { workers: 1 });
    try {
      const answers = await Promise.all([
        via(0, 'POST', '/v1/campaigns/Counted/import', codes(0, 600)),
        via(1, 'POST', '/v1/campaigns/Counted/import', codes(400, 1000)),
        ...Array.from({ length: 100 }, (_, i) =>
          via(i, 'POST', '/v1/campaigns/Counted/vouchers', { code: `IMP-${i * 10}` }),
        ),
        ...Array.from({ length: 60 }, (_, i) => via(i + 1, 'DELETE', `/v1/vouchers/DEL-${i % 40}`)),
      ]);
      const [first, second] = answers;
      const deletes = answers.slice(102);
      assert.deepEqual([first?.status, second?.status], [202, 202]);
      // A second wave of adds once the imports run: codes of their last portions.
      const running = sqliteOf(server.deps).prepare(
        "SELECT count(*) AS n FROM async_actions WHERE id IN (?, ?) AND status = 'IN_PROGRESS'",
      );
      for (
        let waited = 0;
        (running.get(first?.body.async_action_id, second?.body.async_action_id) as { n: number }).n === 0 &&
        waited < 10_000;
        waited += 2
      )
        await new Promise((r) => setTimeout(r, 2));
      const late = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          via(i, 'POST', '/v1/campaigns/Counted/vouchers', { code: `IMP-${951 + i - (i % 2) * 400}` }),
        ),
      );
      const adds = [...answers.slice(2, 102), ...late];
      const jobs = [
        await waitForJob(server, first?.body.async_action_id),
        await waitForJob(server, second?.body.async_action_id),
      ];
      assert.deepEqual(
        jobs.map((j) => j.status),
        ['DONE', 'DONE'],
      );
      assert.ok(
        adds.every((a) => a.status === 200 || (a.status === 409 && a.body.key === 'duplicate_found')),
        JSON.stringify(adds.find((a) => a.status !== 200)),
      );
      assert.deepEqual(
        deletes.reduce((n, d) => n + (d.status === 204 ? 1 : 0), 0),
        40,
      );
      assert.ok(deletes.every((d) => d.status === 204 || d.status === 404));

      const rows = sqliteOf(server.deps)
        .prepare(
          "SELECT count(*) AS n, count(DISTINCT code) AS codes FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id WHERE c.name = 'Counted'",
        )
        .get() as { n: number; codes: number };
      assert.deepEqual(rows, { n: 1000, codes: 1000 }, 'every imported code once, every DEL- code gone');
      const added = adds.filter((a) => a.status === 200).length;
      const imported = jobs.reduce((n, j) => n + j.result.done_count, 0);
      const failed = jobs.reduce((n, j) => n + (j.result.failed_count ?? 0), 0);
      assert.equal(added + imported, 1000, 'each code inserted by exactly one writer');
      assert.equal(imported + failed, 1200, 'every import item done or failed');
      assert.equal((await server.request('GET', '/v1/campaigns/Counted')).body.vouchers_count, 1000);
    } finally {
      await runner.stop();
    }
  });
});
