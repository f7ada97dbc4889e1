import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { jobRegistry as throwingRegistry } from './throwing.job.js';
import { jobRegistry as probeRegistry } from './cache-probe.job.js';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { isOwnerDead } from '../../src/jobs/lease-owner.js';
import type { WorkerReport } from '../../src/jobs/worker.js';
import { claimJob } from '../../src/jobs/leases.service.js';
import { runPortion } from '../../src/jobs/portions.service.js';
import { enqueueJob } from '../../src/jobs/jobs.service.js';
import { generateVouchersStep } from '../../src/modules/vouchers/voucher-generation.job.js';
import { startImportStaging } from '../../src/modules/vouchers/voucher-import.service.js';
import { internalActor } from '../../src/lib/actor.js';
import { JobType } from '../../src/lib/enums.js';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { QUIET_PORTION_MS } from '../../src/jobs/portion-size.js';
import { sqliteOf } from '../support/sqlite.js';
import { sqliteOnly } from '../support/engine.js';

const jobRow = (server: TestServer, id: string) =>
  sqliteOf(server.deps)
    .prepare('SELECT status, cursor, done_count, lease_owner, lease_expires_at FROM async_actions WHERE id = ?')
    .get(id) as {
    status: string;
    cursor: number;
    done_count: number;
    lease_owner: string | null;
    lease_expires_at: number | null;
  };

const codesOf = (server: TestServer, campaign: string): string[] =>
  (
    sqliteOf(server.deps)
      .prepare('SELECT v.code FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id WHERE c.name = ?')
      .all(campaign) as Array<{ code: string }>
  ).map((r) => r.code);

async function enqueue(server: TestServer, campaign: string, count: number): Promise<string> {
  if ((await server.request('GET', `/v1/campaigns/${campaign}`)).status === 404) {
    await server.request('POST', '/v1/campaigns', { body: discountCampaign(campaign) });
  }
  const res = await server.request('POST', `/v1/campaigns/${campaign}/vouchers?vouchers_count=${count}`, { body: {} });
  assert.equal(res.status, 202);
  return res.body.async_action_id;
}

describe('the job runner', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('advances concurrent long jobs round-robin, a portion each', async () => {
    const a = await enqueue(server, 'RR-A', 3000);
    const b = await enqueue(server, 'RR-B', 3000);
    const seen: string[] = [];
    const runner = testRunner(server.deps, { onReport: (id) => seen.push(id) });
    try {
      await waitForJob(server, a);
      await waitForJob(server, b);
    } finally {
      await runner.stop();
    }
    const whileBoth = seen.slice(
      0,
      seen.lastIndexOf(a) < seen.lastIndexOf(b) ? seen.lastIndexOf(a) : seen.lastIndexOf(b),
    );
    assert.ok(whileBoth.length >= 2, `too few portions to judge: ${seen.length}`);
    for (let i = 1; i < whileBoth.length; i++)
      assert.notEqual(whileBoth[i], whileBoth[i - 1], `portion ${i} ran the same job twice in a row`);
    assert.deepEqual([codesOf(server, 'RR-A').length, codesOf(server, 'RR-B').length], [3000, 3000]);
  });

  it(
    "sees another connection's commit between two portions (data_version), and grows portions while nobody writes",
    sqliteOnly("SQLite's data_version and the SQLite file's worker connections"),
    async () => {
      const id = await enqueue(server, 'Neighbours', 60_000);
      const other = openSqlite(server.dbFile);
      const reports: WorkerReport[] = [];
      // A command's runner (follow.ts): portions may grow to QUIET_PORTION_MS while nobody writes.
      const runner = testRunner(server.deps, {
        quietPortionMs: QUIET_PORTION_MS,
        onReport: (_, report) => {
          reports.push(report);
          // Another process's write, strictly between the 3rd portion and the 4th.
          if (reports.length === 3)
            other
              .prepare(
                "INSERT INTO products (id, source_id, name, created_at) VALUES ('prod_neighbour', 'neighbour', 'N', '2024-01-01T00:00:00.000Z')",
              )
              .run();
        },
      });
      try {
        assert.equal((await waitForJob(server, id)).status, 'DONE');
      } finally {
        await runner.stop();
        other.close();
      }
      assert.ok(reports.length >= 6, `too few portions to judge: ${reports.length}`);
      assert.deepEqual(
        reports.slice(0, 6).map((r) => r.neighbours),
        ['unknown', 'quiet', 'quiet', 'writing', 'quiet', 'quiet'],
      );
      // The targets that follow: 40 ms after the API's own commits (the POSTs above), doubling
      // while quiet, 40 ms again after the other connection's write.
      const targets = server.logLines
        .filter((line) => line.msg === 'job portion' && line.job_id === id)
        .slice(0, 6)
        .map((line) => line.target_ms);
      assert.deepEqual(targets, [40, 80, 160, 40, 80, 160]);
    },
  );

  it('leaves a job leased by a live owner alone, and takes it over once the lease expires', async () => {
    const id = await enqueue(server, 'Lease', 50);
    const farAway = 'another-host:123:abc';
    sqliteOf(server.deps)
      .prepare("UPDATE async_actions SET status = 'IN_PROGRESS', lease_owner = ?, lease_expires_at = ? WHERE id = ?")
      .run(farAway, Date.now() + 3_600_000, id);
    const runner = testRunner(server.deps);
    try {
      await new Promise((r) => setTimeout(r, 400));
      assert.deepEqual([jobRow(server, id).lease_owner, jobRow(server, id).cursor], [farAway, 0]);
      sqliteOf(server.deps)
        .prepare('UPDATE async_actions SET lease_expires_at = ? WHERE id = ?')
        .run(Date.now() - 1, id);
      const job = await waitForJob(server, id);
      assert.equal(job.status, 'DONE');
    } finally {
      await runner.stop();
    }
    assert.equal(codesOf(server, 'Lease').length, 50);
  });

  it('takes over at once a job whose owner process on this host is gone', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const owner = `${hostname()}:${dead}:feed`;
    assert.equal(isOwnerDead(owner), true);
    assert.equal(isOwnerDead(`${hostname()}:${process.pid}:feed`), false);
    assert.equal(isOwnerDead(`elsewhere:${dead}:feed`), false);
    const id = await enqueue(server, 'Orphan', 40);
    sqliteOf(server.deps)
      .prepare(
        "UPDATE async_actions SET status = 'IN_PROGRESS', cursor = 0, lease_owner = ?, lease_expires_at = ? WHERE id = ?",
      )
      .run(owner, Date.now() + 3_600_000, id);
    const runner = testRunner(server.deps);
    try {
      // "At once" against a lease an hour away: a worker thread's start alone takes seconds on a loaded box (4.3 s on SQLite, 6.1 s on PostgreSQL seen at load 16).
      assert.equal((await waitForJob(server, id, 20_000)).status, 'DONE');
    } finally {
      await runner.stop();
    }
    assert.equal(codesOf(server, 'Orphan').length, 40);
  });

  it('writes nothing for a portion whose lease another owner holds', async () => {
    const id = await enqueue(server, 'Lost', 100);
    const claimed = await claimJob(server.deps, {
      owner: 'me:1:a',
      leaseMs: 60_000,
      only: [id],
      exclude: [],
      isOwnerDead: () => false,
    });
    assert.deepEqual(claimed, { id, type: 'CAMPAIGN.VOUCHERS_GENERATE' });
    const stolen = await runPortion(
      server.deps,
      { jobId: id, owner: 'thief:2:b', maxItems: 100 },
      generateVouchersStep,
    );
    assert.deepEqual(stolen, { state: 'lost', items: 0 });
    assert.deepEqual([jobRow(server, id).cursor, codesOf(server, 'Lost').length], [0, 0]);
    const mine = await runPortion(server.deps, { jobId: id, owner: 'me:1:a', maxItems: 60 }, generateVouchersStep);
    assert.deepEqual(mine, { state: 'continue', items: 60 });
    assert.deepEqual(
      [jobRow(server, id).cursor, jobRow(server, id).done_count, codesOf(server, 'Lost').length],
      [60, 60, 60],
    );
    const last = await runPortion(server.deps, { jobId: id, owner: 'me:1:a', maxItems: 60 }, generateVouchersStep);
    assert.deepEqual(last, { state: 'finished', items: 40 });
    assert.deepEqual(
      [jobRow(server, id).status, jobRow(server, id).lease_owner, codesOf(server, 'Lost').length],
      ['DONE', null, 100],
    );
  });

  it('releases its leases on stop, and another runner finishes the job exactly', async () => {
    const id = await enqueue(server, 'Handover', 20_000);
    const reports: WorkerReport[] = [];
    const first = testRunner(server.deps, { onReport: (_, r) => reports.push(r) });
    while (reports.length < 2) await new Promise((r) => setTimeout(r, 10));
    await first.stop();
    const paused = jobRow(server, id);
    assert.deepEqual([paused.status, paused.lease_owner, paused.lease_expires_at], ['IN_PROGRESS', null, null]);
    assert.ok(paused.cursor > 0 && paused.cursor < 20_000, `cursor ${paused.cursor}`);
    assert.equal(codesOf(server, 'Handover').length, paused.cursor);
    const second = testRunner(server.deps);
    try {
      assert.equal((await waitForJob(server, id)).result.done_count, 20_000);
    } finally {
      await second.stop();
    }
    const codes = codesOf(server, 'Handover');
    assert.deepEqual([codes.length, new Set(codes).size], [20_000, 20_000]);
  });

  it('fails a generation whose campaign was deleted, and a job of an unknown type', async () => {
    const id = await enqueue(server, 'Gone', 10);
    const campaignId = (await server.request('GET', '/v1/campaigns/Gone')).body.id;
    sqliteOf(server.deps).prepare("UPDATE campaigns SET deleted_at = 'x' WHERE name = 'Gone'").run();
    const unknown = await server.deps.db.transaction().execute((trx) =>
      enqueueJob(trx, {
        type: 'ORDERS.METADATA_KEY_PURGE',
        payload: {},
        total: 1,
        requestId: 'r',
        now: new Date().toISOString(),
      }),
    );
    const runner = testRunner(server.deps);
    try {
      const gone = await waitForJob(server, id);
      assert.deepEqual(
        [gone.status, gone.operation_status, gone.progress, gone.result],
        [
          'FAILED',
          'FAILED',
          0,
          {
            message: `Campaign ${campaignId} was deleted after 0 of 10 vouchers were generated.`,
            done_count: 0,
            failed_count: 0,
          },
        ],
      );
      const other = await waitForJob(server, unknown);
      assert.deepEqual(
        [other.status, other.result],
        [
          'FAILED',
          { message: 'This promo cannot run ORDERS.METADATA_KEY_PURGE jobs.', done_count: 0, failed_count: 0 },
        ],
      );
    } finally {
      await runner.stop();
    }
  });

  it("runs the step's fail when a portion keeps throwing: the generation's campaign leaves IN_PROGRESS", async () => {
    const id = await enqueue(server, 'Throws', 50);
    const campaign = async () => (await server.request('GET', '/v1/campaigns/Throws')).body;
    assert.deepEqual(
      [(await campaign()).vouchers_generation_status, (await campaign()).vouchers_count],
      ['IN_PROGRESS', 0],
    );
    const runner = testRunner(server.deps, { registry: throwingRegistry, only: [id] });
    try {
      const job = await waitForJob(server, id);
      assert.deepEqual(
        [job.status, job.operation_status, job.progress, job.result],
        [
          'FAILED',
          'FAILED',
          0,
          { message: 'The job stopped after an unexpected error: disk on fire', done_count: 0, failed_count: 0 },
        ],
      );
    } finally {
      await runner.stop();
    }
    assert.deepEqual([(await campaign()).vouchers_generation_status, (await campaign()).vouchers_count], ['FAILED', 0]);
    const failures = server.logLines.filter(
      (line) => line.level === 'error' && line.job_id === id && line.err?.message === 'disk on fire',
    );
    assert.deepEqual(
      failures.map((line) => [line.msg, line.type, line.attempt, line.err?.type]),
      [1, 2, 3].map((attempt) => ['job portion failed', JobType.vouchersGenerate, attempt, 'Error']),
    );
  });

  it(
    "gives each job type's portions the worker page cache its registry line asks for (cacheMb), the default to the others",
    sqliteOnly(
      "a worker connection's page cache (PRAGMA cache_size) is SQLite's; PostgreSQL's is the server's shared_buffers, for every connection at once",
    ),
    async () => {
      const registry = probeRegistry;
      await server.request('POST', '/v1/campaigns', { body: discountCampaign('Probe') });
      const ordersJob = async () =>
        (await server.request('POST', '/v1/orders/import', { body: [{ source_id: 'probe-1' }] })).body
          .async_action_id as string;
      const vouchersJob = async () => {
        const staging = await startImportStaging(server.deps, 'Probe', internalActor());
        await staging.add([{ code: 'PROBE-1' }]);
        await staging.seal();
        return staging.jobId;
      };
      // One worker thread, one connection: the jobs one after another, each with its type's cache.
      const ids = [await ordersJob(), await vouchersJob(), await ordersJob()];
      const runner = testRunner(server.deps, { registry, workers: 1, only: ids });
      try {
        const messages = [];
        for (const id of ids) messages.push((await waitForJob(server, id)).result.message);
        assert.deepEqual(messages, ['-8192', '-65536', '-8192']);
      } finally {
        await runner.stop();
      }
    },
  );

  it('fails an import whose writer died before sealing it, and runs one that was sealed', async () => {
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Staged') });
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const abandoned = await startImportStaging(server.deps, 'Staged', internalActor());
    await abandoned.add([{ code: 'S-1' }]);
    // Its writer dies: its lease names a process that is gone.
    sqliteOf(server.deps)
      .prepare('UPDATE async_actions SET lease_owner = ? WHERE id = ?')
      .run(`${hostname()}:${dead}:x`, abandoned.jobId);
    const sealed = await startImportStaging(server.deps, 'Staged', internalActor());
    await sealed.add([{ code: 'S-2' }, { code: 'S-3' }]);
    await sealed.add([{ code: 'S-4' }]);
    await sealed.seal();
    const runner = testRunner(server.deps);
    try {
      const failed = await waitForJob(server, abandoned.jobId);
      assert.deepEqual(
        [failed.status, failed.result],
        ['FAILED', { message: 'The import was interrupted before all of its items were read.', done_count: 0 }],
      );
      const done = await waitForJob(server, sealed.jobId);
      assert.deepEqual([done.status, done.result.done_count], ['DONE', 3]);
    } finally {
      await runner.stop();
    }
    assert.deepEqual(codesOf(server, 'Staged').sort(), ['S-2', 'S-3', 'S-4']);
  });
});
