import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WAL_SIZE_LIMIT_BYTES } from '../../src/db/sqlite/connect.js';
import { copyWalBack, walBytes } from '../../src/db/sqlite/wal.js';
import { discountCampaign } from '../support/factories.js';
import type { JobRunner } from '../../src/jobs/runner.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';
import { sqliteOnly } from '../support/engine.js';

const MiB = 1024 * 1024;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** POST /v1/customers one after another until `done()`: answers their statuses. */
async function customersUntil(server: TestServer, prefix: string, done: () => boolean): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; !done(); i++) {
    statuses.push((await server.request('POST', '/v1/customers', { body: { source_id: `${prefix}-${i}` } })).status);
    await pause(2);
  }
  return statuses;
}

/** The -wal file's largest size until `done()`, looked at every 5 ms. */
async function walPeak(dbFile: string, done: () => boolean): Promise<number> {
  let peak = 0;
  while (!done()) {
    peak = Math.max(peak, walBytes(dbFile));
    await pause(5);
  }
  return peak;
}

/**
 * The -wal file's peak while `runner` generates `count` codes in a new campaign; `callerCopy`,
 * if given, runs every 20 ms meanwhile. The runner is stopped at the end.
 */
async function generationWalPeak(
  server: TestServer,
  name: string,
  count: number,
  runner: JobRunner,
  callerCopy?: () => unknown,
): Promise<number> {
  try {
    assert.equal((await server.request('POST', '/v1/campaigns', { body: discountCampaign(name) })).status, 200);
    const res = await server.request('POST', `/v1/campaigns/${name}/vouchers?vouchers_count=${count}`, { body: {} });
    assert.equal(res.status, 202);
    let ended = false;
    const job = waitForJob(server, res.body.async_action_id, 120_000).finally(() => {
      ended = true;
    });
    const caller = (async () => {
      for (; callerCopy && !ended; await pause(20)) await callerCopy();
    })();
    const [peak, done] = await Promise.all([walPeak(server.dbFile, () => ended), job, caller]);
    assert.deepEqual([done.status, done.result.done_count], ['DONE', count]);
    return peak;
  } finally {
    await runner.stop();
  }
}

describe('WAL checkpoints beside bulk jobs', sqliteOnly("SQLite's WAL checkpoints"), () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it("keeps the API's connection from checkpointing below 64 MiB: job workers copy the WAL back during a generation", async () => {
    const pageSize = sqliteOf(server.deps).pragma('page_size', { simple: true }) as number;
    assert.equal(sqliteOf(server.deps).pragma('wal_autocheckpoint', { simple: true }), WAL_SIZE_LIMIT_BYTES / pageSize);
    assert.equal((await server.request('POST', '/v1/campaigns', { body: discountCampaign('Wal') })).status, 200);
    // 40,000 random codes write far more than 64 MiB of WAL (pages all over the code indexes):
    // without the workers' checkpoints it would pass the API's 64 MiB before any restart.
    const jobBytes = 2 * MiB;
    const runner = testRunner(server.deps, { workers: 2, wal: { jobBytes, idleBytes: 1 * MiB } });
    const walBefore = walBytes(server.dbFile);
    try {
      const res = await server.request('POST', '/v1/campaigns/Wal/vouchers?vouchers_count=40000', { body: {} });
      assert.equal(res.status, 202);
      let ended = false;
      const job = waitForJob(server, res.body.async_action_id, 120_000).finally(() => {
        ended = true;
      });
      const [statuses, peak, done] = await Promise.all([
        customersUntil(server, 'beside', () => ended),
        walPeak(server.dbFile, () => ended),
        job,
      ]);
      assert.deepEqual([done.status, done.result.done_count], ['DONE', 40_000]);
      assert.ok(
        statuses.length > 0 && statuses.every((s) => s === 200),
        `customer POSTs answered ${[...new Set(statuses)].join(', ')}`,
      );
      // The threshold and the portions written before a worker looks (without the workers'
      // checkpoints: about 50 MiB).
      assert.ok(
        peak <= 16 * MiB,
        `the WAL reached ${(peak / MiB).toFixed(1)} MiB (threshold ${jobBytes / MiB} MiB; before the job ${walBefore} bytes)`,
      );
    } finally {
      await runner.stop();
    }
    const count = sqliteOf(server.deps)
      .prepare("SELECT count(*) AS n FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id WHERE c.name = 'Wal'")
      .get() as { n: number };
    assert.equal(count.n, 40_000);
  });

  it('copies the WAL back and truncates it while no job runs, off the request thread', async () => {
    for (let i = 0; walBytes(server.dbFile) < 256 * 1024; i++) {
      assert.equal((await server.request('POST', '/v1/customers', { body: { source_id: `idle-${i}` } })).status, 200);
    }
    await pause(1_200);
    assert.ok(walBytes(server.dbFile) >= 256 * 1024, 'the API connection checkpointed by itself');
    const checkpoints: number[] = [];
    const runner = testRunner(server.deps, {
      wal: { jobBytes: 2 * MiB, idleBytes: 128 * 1024 },
      onCheckpoint: (ms) => checkpoints.push(ms),
    });
    try {
      const deadline = Date.now() + 10_000;
      while ((walBytes(server.dbFile) > 0 || checkpoints.length === 0) && Date.now() < deadline) await pause(20);
      assert.equal(walBytes(server.dbFile), 0);
      assert.equal(checkpoints.length, 1);
      // Below the idle threshold, the runner leaves it alone.
      assert.equal((await server.request('POST', '/v1/customers', { body: { source_id: 'idle-last' } })).status, 200);
      await pause(1_500);
      assert.ok(walBytes(server.dbFile) > 0);
      assert.equal(checkpoints.length, 1);
    } finally {
      await runner.stop();
    }
  });

  it('while the API writes and no job runs, restarts the WAL in place every quarter second; cuts it to zero bytes once writes stop', async () => {
    const checkpoints: number[] = [];
    const runner = testRunner(server.deps, {
      wal: { jobBytes: 2 * MiB, idleBytes: 16 * 1024 },
      onCheckpoint: () => checkpoints.push(Date.now()),
    });
    try {
      // The checkpoints run on the runner's worker thread, whose start takes seconds on a loaded
      // machine: the storm is timed from the thread's first checkpoint, so it measures the
      // quarter-second looks, not the thread's start.
      const warmDeadline = Date.now() + 60_000;
      await customersUntil(server, 'warm', () => checkpoints.length > 0 || Date.now() > warmDeadline);
      const before = checkpoints.length;
      assert.ok(before > 0, 'the runner checkpointed within 60 s of writes');
      const stormMs = 3_000;
      const until = Date.now() + stormMs;
      let emptied = 0;
      const watch = (async () => {
        // The file keeps its size while writes go on (RESTART); a look after the warm-up's last
        // write may still have cut it (TRUNCATE), so the watch starts from the storm's second look.
        while (Date.now() < until) {
          if (checkpoints.length > before + 1 && walBytes(server.dbFile) === 0) emptied++;
          await pause(5);
        }
      })();
      const statuses = await customersUntil(server, 'storm', () => Date.now() >= until);
      await watch;
      assert.deepEqual(new Set(statuses), new Set([200]));
      const during = checkpoints.length - before;
      // A look every 250 ms (the runner's poll): at least half of them copied and restarted; once a second would be 3.
      assert.ok(during >= 6, `${during} checkpoints in ${stormMs} ms of writes`);
      assert.equal(emptied, 0, 'the WAL file was cut to zero bytes while writes went on');
      const deadline = Date.now() + 5_000;
      while (walBytes(server.dbFile) > 0 && Date.now() < deadline) await pause(20);
      assert.equal(walBytes(server.dbFile), 0, 'once writes stopped, the next look cut the file to zero bytes');
      // The look right after the last writes still saw them (RESTART); the next one cut the file.
      const afterWrites = checkpoints.length - before - during;
      assert.ok([1, 2].includes(afterWrites), `${afterWrites} checkpoints after the writes`);
    } finally {
      await runner.stop();
    }
  });

  it("leaves the WAL to the runner's caller when it copies it back itself (callerCopiesWal: a command's main thread)", async () => {
    // No restart threshold within reach: the WAL restarts at its beginning only after a copy.
    const wal = { jobBytes: 1024 * MiB, idleBytes: 1024 * MiB };
    // Workers that copy before each portion keep the WAL at about two portions; left to a
    // caller that does not copy, it holds every portion of the job.
    const copiedByWorkers = await generationWalPeak(
      server,
      'WalWorkers',
      4000,
      testRunner(server.deps, { wal, callerCopiesWal: false }),
    );
    const leftToCaller = await generationWalPeak(
      server,
      'WalCaller',
      4000,
      testRunner(server.deps, { wal, callerCopiesWal: true }),
    );
    assert.ok(
      leftToCaller > 2 * copiedByWorkers,
      `WAL peak ${(leftToCaller / MiB).toFixed(1)} MiB left to the caller, ${(copiedByWorkers / MiB).toFixed(1)} MiB copied by workers`,
    );
  });

  it('restarts the WAL past the threshold by what the caller found in its own copies (copyWalBack)', async () => {
    const jobBytes = 2 * MiB;
    const peak = (name: string, reported: boolean) => {
      const runner = testRunner(server.deps, { wal: { jobBytes, idleBytes: 1024 * MiB }, callerCopiesWal: true });
      // The caller's copies, as jobs/follow.ts runs them on a command's main thread.
      return generationWalPeak(server, name, 80_000, runner, () =>
        reported ? runner.copyWalBack() : copyWalBack(sqliteOf(server.deps)),
      );
    };
    const unreported = await peak('WalUnreported', false);
    const reported = await peak('WalReported', true);
    assert.ok(
      reported <= 24 * MiB,
      `the WAL reached ${(reported / MiB).toFixed(1)} MiB with the caller's copies reported (threshold ${jobBytes / MiB} MiB)`,
    );
    // Threshold plus about one portion's writes, against every portion of the job (~80 MiB).
    assert.ok(
      unreported > 2 * reported,
      `WAL peak ${(unreported / MiB).toFixed(1)} MiB unreported, ${(reported / MiB).toFixed(1)} MiB reported`,
    );
  });
});
