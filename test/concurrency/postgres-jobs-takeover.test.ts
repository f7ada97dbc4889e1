import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { spawnServe, type SpawnedServer } from '../support/cli.js';
import { postgresForTests, type TestPostgres } from '../support/postgres.js';
import { startTestServer, type TestServer } from '../support/server.js';

const COUNT = 20_000;
const ENV = { PROMO_APP_ID: 'pg-jobs-app', PROMO_APP_TOKEN: 'pg-jobs-token', PROMO_DB_POOL: '4' };

const found = await postgresForTests();

interface JobAnswer {
  status: string;
  operation_status?: string;
  progress: number;
  result?: unknown;
}

interface Figures {
  job: { status: string; cursor: number; done_count: number; lease_owner: string | null };
  vouchers: { n: number; distinct_codes: number };
  counted: number;
}

/**
 * Bulk jobs on PostgreSQL across two `promo serve` processes on one database: both run a job
 * runner; the one holding the generation's lease is SIGKILLed mid-way, and the other takes the
 * job over (the dead owner's pid is gone on this host) and ends it with exactly the codes asked
 * for. This process's test server, on the same database, only sets up and reads back.
 */
describe('a bulk job on PostgreSQL finished by the second promo serve when the first dies', {
  skip: found.skip,
}, () => {
  let postgres: TestPostgres;
  let setup: TestServer;
  let servers: SpawnedServer[] = [];
  before(async () => {
    postgres = (found as { server: TestPostgres }).server;
    setup = await startTestServer({ dbFile: await postgres.migratedDatabase() });
    servers = [await spawnServe(['--db', setup.dbFile, '--workers', '2'], ENV)];
    servers.push(await spawnServe(['--db', setup.dbFile, '--workers', '2'], ENV));
  });
  after(async () => {
    for (const server of servers) if (server.child.exitCode === null && !server.child.killed) await server.stop();
    await setup?.close();
    await postgres?.close();
  });

  const figures = async (): Promise<Figures> => {
    const { rows } = await sql<Figures>`SELECT
        (SELECT row_to_json(j) FROM (SELECT status, cursor, done_count, lease_owner FROM async_actions
                                     WHERE type = 'CAMPAIGN.VOUCHERS_GENERATE') j) AS job,
        (SELECT row_to_json(v) FROM (SELECT count(*) AS n, count(DISTINCT code) AS distinct_codes
                                     FROM vouchers) v) AS vouchers,
        (SELECT vouchers_count FROM campaigns WHERE name = 'Takeover') AS counted`.execute(setup.deps.db);
    return rows[0] as Figures;
  };

  it('a generation whose server is SIGKILLed is finished by the other with exactly the requested codes', async () => {
    const [a] = servers as [SpawnedServer, SpawnedServer];
    await a.request('POST', '/v1/campaigns', {
      name: 'Takeover',
      campaign_type: 'DISCOUNT_COUPONS',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
    });
    const started = await a.request<{ async_action_id: string }>(
      'POST',
      `/v1/campaigns/Takeover/vouchers?vouchers_count=${COUNT}`,
      {},
    );
    const id = started.body.async_action_id;
    let owner: string | null = null;
    for (let progress = 0; progress < 10 || owner === null; ) {
      await new Promise((r) => setTimeout(r, 20));
      progress = (await a.request<JobAnswer>('GET', `/v1/async-actions/${id}`)).body.progress;
      assert.ok(progress < 90, 'the job ran too fast to be killed in the middle');
      owner = (await figures()).job.lease_owner;
    }
    // Either server may have claimed it: the holder of the lease dies.
    const holder = servers.findIndex((s) => owner?.split(':')[1] === String(s.child.pid));
    assert.notEqual(holder, -1, `lease owner ${owner} is neither server`);
    const dead = servers[holder] as SpawnedServer;
    const survivor = servers[1 - holder] as SpawnedServer;
    assert.equal(await dead.stop('SIGKILL'), null);

    // What the crash left: a job in progress whose cursor is exactly what was committed.
    const crashed = await figures();
    assert.equal(crashed.job.status, 'IN_PROGRESS');
    assert.ok(crashed.job.cursor > 0 && crashed.job.cursor < COUNT, `cursor ${crashed.job.cursor}`);
    assert.deepEqual(
      [crashed.vouchers.n, crashed.job.done_count, crashed.counted],
      [crashed.job.cursor, crashed.job.cursor, crashed.job.cursor],
    );

    let job: JobAnswer;
    const deadline = Date.now() + 240_000;
    do {
      await new Promise((r) => setTimeout(r, 100));
      job = (await survivor.request<JobAnswer>('GET', `/v1/async-actions/${id}`)).body;
    } while (job.status !== 'DONE' && job.status !== 'FAILED' && Date.now() < deadline);
    assert.deepEqual(
      [job.status, job.operation_status, job.progress, job.result],
      ['DONE', 'SUCCESS', 100, { message: `Generated ${COUNT} vouchers.`, done_count: COUNT }],
    );
    assert.deepEqual(await figures(), {
      job: { status: 'DONE', cursor: COUNT, done_count: COUNT, lease_owner: null },
      vouchers: { n: COUNT, distinct_codes: COUNT },
      counted: COUNT,
    });
  });
});
