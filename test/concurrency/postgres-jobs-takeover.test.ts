import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { fixedClock } from '../../src/lib/clock.js';
import { expireDueBuckets } from '../../src/modules/ledgers/points-expiry.sweep.js';
import { loyaltyCard } from '../modules/ledgers/fixtures.js';
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
 * Bulk jobs and sweeps on PostgreSQL across `promo serve` processes on one database. Sweeps: a
 * server and this process expire the same due buckets at once, each exactly once. Jobs: two
 * servers run a job runner; the one holding the generation's lease is SIGKILLed mid-way, and the
 * other takes the job over (the dead owner's pid is gone on this host) and ends it with exactly
 * the codes asked for. This process's test server, on the same database, sets up and reads back.
 */
describe('bulk jobs and sweeps on PostgreSQL across promo serve processes', {
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
    for (const server of servers)
      if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
    await setup?.close();
    await postgres?.close();
  });

  const figures = async (): Promise<Figures> => {
    const { rows } = await sql<Figures>`SELECT
        (SELECT row_to_json(j) FROM (SELECT status, cursor, done_count, lease_owner FROM async_actions
                                     WHERE type = 'CAMPAIGN.VOUCHERS_GENERATE') j) AS job,
        (SELECT row_to_json(v) FROM (SELECT count(*) AS n, count(DISTINCT code) AS distinct_codes
                                     FROM vouchers WHERE campaign_id = (SELECT id FROM campaigns
                                                                        WHERE name = 'Takeover')) v) AS vouchers,
        (SELECT vouchers_count FROM campaigns WHERE name = 'Takeover') AS counted`.execute(setup.deps.db);
    return rows[0] as Figures;
  };

  it('expires each due bucket once with a third server and this process sweeping at the same time', async () => {
    // Cards whose opening points (40 of 100) expired long ago.
    const { campaign } = await loyaltyCard(setup, 'Sweep race program', 'PG-SWEEP-SEED', 0);
    const cards = 1000;
    await sql`INSERT INTO vouchers (id, code, campaign_id, type, loyalty_points, loyalty_balance,
        loyalty_next_expiration_date, loyalty_next_expiration_points, loyalty_pending_points,
        loyalty_expired_points, loyalty_subtracted_points, created_at)
      SELECT 'v_pgsweep' || lpad(i::text, 5, '0'), 'PG-SWEEP-' || i, ${campaign.id}, 'LOYALTY_CARD', 100, 100,
        '2020-06-01', 40, 0, 0, 0, '2020-01-01T00:00:00.000Z' FROM generate_series(0, ${cards - 1}) AS i`.execute(
      setup.deps.db,
    );
    // The server's round starts before it listens; this process's sweep joins it, 10 buckets a batch.
    const sweeper = await spawnServe(['--db', setup.dbFile], ENV);
    await expireDueBuckets({ ...setup.deps, clock: fixedClock(new Date()) }, undefined, 10);
    try {
      for (let waited = 0; waited < 60_000; waited += 100) {
        const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM points_buckets
          WHERE status = 'ACTIVE' AND expires_on < '2026-01-01'`.execute(setup.deps.db);
        if (rows[0]?.n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await sweeper.stop('SIGTERM');
    }
    const { rows } = await sql`SELECT
        (SELECT row_to_json(e) FROM (SELECT count(*) AS n, count(DISTINCT voucher_id) AS cards, sum(delta) AS s
           FROM ledger_entries WHERE type = 'POINTS_EXPIRATION' AND voucher_id LIKE 'v_pgsweep%') e) AS expiries,
        (SELECT count(*) FROM points_draws d JOIN points_buckets b ON b.id = d.bucket_id
           WHERE b.expires_on = '2020-06-01') AS draws,
        (SELECT row_to_json(v) FROM (SELECT sum(loyalty_balance) AS balance, sum(loyalty_expired_points) AS expired
           FROM vouchers WHERE id LIKE 'v_pgsweep%') v) AS cards`.execute(setup.deps.db);
    assert.deepEqual(rows[0], {
      expiries: { n: cards, cards, s: -40 * cards },
      draws: cards,
      cards: { balance: 60 * cards, expired: 40 * cards },
    });
  });

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
