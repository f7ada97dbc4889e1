import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { runJobToEnd } from '../../src/jobs/follow.js';
import { getJobView } from '../../src/jobs/jobs.service.js';
import { jobRegistry } from '../../src/root/job-registry.js';
import { discountCampaign } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A command's own job (jobs/follow.ts), as `promo import`/`export`/`generate` run it. */
describe('runJobToEnd', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('ends DONE when a transaction of the same connection is open as the job ends (its checkpoints wait for it, never SQLITE_LOCKED)', async () => {
    assert.equal(
      (await server.request('POST', '/v1/campaigns', { body: discountCampaign('FollowLocked') })).status,
      200,
    );
    const res = await server.request('POST', '/v1/campaigns/FollowLocked/vouchers?vouchers_count=50', { body: {} });
    assert.equal(res.status, 202);
    const jobId: string = res.body.async_action_id;
    // What the runner's claims and heartbeats do on the command's writer: a transaction held
    // across turns of the event loop, here from the moment the job is DONE until the command's
    // poll (every 100 ms) has seen it and emptied the log.
    let held = Promise.resolve();
    const watcher = (async () => {
      while ((await getJobView(server.deps, jobId)).status !== 'DONE') await pause(1);
      held = server.deps.db.transaction().execute(async (trx) => {
        await sql`UPDATE campaigns SET updated_at = updated_at WHERE name = 'FollowLocked'`.execute(trx);
        await pause(300);
      });
    })();
    const job = await runJobToEnd(server.deps, jobRegistry, jobId);
    await watcher;
    await held;
    assert.deepEqual([job.status, job.result], ['DONE', { message: 'Generated 50 vouchers.', done_count: 50 }]);
    assert.deepEqual(server.logged, []);
  });
});
