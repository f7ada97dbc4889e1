import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { parseHandOffMs } from '../../src/app/config.js';
import type { JobRegistry } from '../../src/jobs/registry.js';
import { jobRegistry } from '../../src/root/job-registry.js';
import {
  announceWait,
  createWriteIntent,
  endWait,
  letWaitingWriteFirst,
  waitingMs,
} from '../../src/db/sqlite/write-intent.js';
import type { WorkerReport } from '../../src/jobs/worker.js';
import { JobType } from '../../src/lib/enums.js';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';
import { sqliteOnly } from '../support/engine.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The app's registry, with the generation's first portion (and overlap) as given: the runner's lines, the same steps. */
const generationRegistry = (firstPortion: number, overlap: boolean): JobRegistry => ({
  ...jobRegistry,
  types: {
    ...jobRegistry.types,
    [JobType.vouchersGenerate]: { ...jobRegistry.types[JobType.vouchersGenerate]!, firstPortion, overlap },
  },
});

async function generation(server: TestServer, campaign: string, count: number): Promise<string> {
  assert.equal((await server.request('POST', '/v1/campaigns', { body: discountCampaign(campaign) })).status, 200);
  const res = await server.request('POST', `/v1/campaigns/${campaign}/vouchers?vouchers_count=${count}`, { body: {} });
  assert.equal(res.status, 202);
  return res.body.async_action_id;
}

const countOf = (server: TestServer, campaign: string): number =>
  (
    sqliteOf(server.deps)
      .prepare('SELECT count(*) AS n FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id WHERE c.name = ?')
      .get(campaign) as { n: number }
  ).n;

describe('the write intent (db/sqlite/write-intent.ts)', sqliteOnly("the hand-off on SQLite's one write lock"), () => {
  it('tells how long a write has waited, and lets a worker wait until it has the lock', async () => {
    const intent = createWriteIntent();
    assert.equal(waitingMs(intent), -1);
    let started = performance.now();
    letWaitingWriteFirst(intent, 200);
    assert.ok(performance.now() - started < 50, 'nobody waits: no pause');

    announceWait(intent);
    await pause(20);
    assert.ok(waitingMs(intent) >= 15, `waited ${waitingMs(intent)} ms`);
    // Another thread ends the wait after ~30 ms: this one, blocked meanwhile, goes on then.
    const ender = new Worker(
      `const { workerData } = require('node:worker_threads');
       setTimeout(() => { Atomics.store(new Int32Array(workerData, 0, 1), 0, 0); Atomics.notify(new Int32Array(workerData, 0, 1), 0); }, 30);`,
      { eval: true, workerData: intent },
    );
    started = performance.now();
    letWaitingWriteFirst(intent, 2_000);
    const blocked = performance.now() - started;
    await ender.terminate();
    assert.ok(blocked >= 20 && blocked < 1_000, `blocked ${blocked} ms`);
    assert.equal(waitingMs(intent), -1);

    announceWait(intent);
    started = performance.now();
    letWaitingWriteFirst(intent, 40);
    assert.ok(performance.now() - started >= 35, 'a write that never gets the lock holds a worker at most maxMs');
    endWait(intent);
    assert.equal(waitingMs(intent), -1);
  });
});

describe(
  'API writes beside a generation',
  sqliteOnly("a job's portion handing SQLite's one write lock to an API write"),
  () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.close());

    it("ends the portion in flight early when an API write waits for the lock, and the job's count stays exact", async () => {
      // A first portion of 30,000 codes holds the lock for a good second: without the hand-off,
      // every POST beside it would wait for all of it.
      const id = await generation(server, 'Handoff', 40_000);
      const reports: WorkerReport[] = [];
      const runner = testRunner(server.deps, {
        registry: generationRegistry(30_000, false),
        onReport: (_, report) => reports.push(report),
      });
      const statuses: number[] = [];
      try {
        for (let i = 0; reports.length === 0; i++) {
          statuses.push(
            (await server.request('POST', '/v1/customers', { body: { source_id: `handoff-${i}` } })).status,
          );
          await pause(2);
        }
        assert.equal((await waitForJob(server, id, 120_000)).status, 'DONE');
      } finally {
        await runner.stop();
      }
      assert.ok(
        statuses.every((s) => s === 200),
        `customer POSTs answered ${[...new Set(statuses)].join(', ')}`,
      );
      const [first] = reports;
      assert.equal(first?.state, 'continue');
      assert.ok(first.items > 0 && first.items < 30_000, `the first portion inserted ${first.items} codes of 30,000`);
      assert.equal(countOf(server, 'Handoff'), 40_000);
      const counted = await server.request('GET', '/v1/campaigns/Handoff');
      assert.deepEqual([counted.body.vouchers_count, counted.body.vouchers_generation_status], [40_000, 'DONE']);
    });

    it("keeps the portion whole while the wait stays under the hand-off (PROMO_HAND_OFF_MS, the runner's handOffMs)", async () => {
      const id = await generation(server, 'HandoffLong', 40_000);
      const reports: WorkerReport[] = [];
      const runner = testRunner(server.deps, {
        registry: generationRegistry(30_000, false),
        handOffMs: 60_000,
        onReport: (_, report) => reports.push(report),
      });
      try {
        for (let i = 0; reports.length === 0; i++) {
          assert.equal(
            (await server.request('POST', '/v1/customers', { body: { source_id: `handoff-long-${i}` } })).status,
            200,
          );
          await pause(2);
        }
        assert.equal((await waitForJob(server, id, 120_000)).status, 'DONE');
      } finally {
        await runner.stop();
      }
      assert.deepEqual([reports[0]?.state, reports[0]?.items], ['continue', 30_000]);
      assert.equal(countOf(server, 'HandoffLong'), 40_000);
      assert.deepEqual([parseHandOffMs(undefined), parseHandOffMs('5')], [undefined, 5]);
      for (const bad of ['0', '1001', '2.5', 'soon'])
        assert.throws(() => parseHandOffMs(bad), {
          message: `Invalid PROMO_HAND_OFF_MS: ${bad} (milliseconds, 1..1000)`,
        });
    });

    it('overlaps two portions of one generation on two threads, and ends the job once', async () => {
      const id = await generation(server, 'Overlap', 20_000);
      const reports: WorkerReport[] = [];
      const runner = testRunner(server.deps, {
        workers: 2,
        registry: generationRegistry(500, true),
        onReport: (_, report) => reports.push(report),
      });
      try {
        assert.equal((await waitForJob(server, id, 120_000)).status, 'DONE');
      } finally {
        await runner.stop();
      }
      assert.equal(countOf(server, 'Overlap'), 20_000);
      const ended = server.logLines.filter((line) => line.msg === 'job ended' && line.job_id === id);
      assert.deepEqual(
        ended.map((line) => line.state),
        ['finished'],
      );
      // A portion that found the job ended by the other one is not reported; each reported portion moved the cursor.
      assert.ok(
        reports.length >= 4 && reports.every((r) => r.items > 0),
        JSON.stringify(reports.map((r) => [r.state, r.items])),
      );
      assert.equal(
        reports.reduce((sum, r) => sum + r.items, 0),
        20_000,
      );
    });
  },
);
