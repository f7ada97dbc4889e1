/**
 * API writes beside a bulk job (issue 15, point 6): POST /v1/customers every 5 ms, one at a
 * time, through the real `promo serve --workers 2`, first idle (the same server, before the
 * job), then during POST /v1/campaigns/{id}/vouchers?vouchers_count=1000000 until DONE.
 *
 * Figures: the POSTs' p50/p99 idle and during the generation (target: p99 <= 50 ms during),
 * the generation's codes/s beside the raw insert loop's rows/s (support/raw-insert.ts, run
 * before and after the server; the same baseline as vouchers-generate), and the WAL's peak
 * size, polling the -wal file every 20 ms (target <= 64 MB).
 *
 * BENCH_COUNT=100000 runs a smaller job: a quick check of the bench itself.
 */
import { existsSync, statSync } from 'node:fs';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freshDbFile } from '../support/db.js';
import { jsonRequest, percentile, round } from './support/load.js';
import { betweenRawLoops } from './support/raw-insert.js';
import { spawnListening } from './support/spawn.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 1_000_000);
const IDLE_POSTS = 400;
const POST_EVERY_MS = 5;
const WAL_POLL_MS = 20;
const APP = { id: 'bench-app', token: 'bench-token-0123456789' };
const HEADERS = { 'X-App-Id': APP.id, 'X-App-Token': APP.token, 'Content-Type': 'application/json' };
const DISCOUNT = { type: 'PERCENT', percent_off: 10 };
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));

interface Answer {
  status: string;
  async_action_id: string;
}

const call = (agent: Agent, base: string, method: string, path: string, body?: unknown) =>
  jsonRequest<Answer>(agent, base, HEADERS, method, path, body);
const pause = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** One customer POST every POST_EVERY_MS until `stop()` says so; answers the sorted latencies. */
async function postCustomers(
  agent: Agent,
  base: string,
  name: string,
  stop: (i: number) => boolean,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; !stop(i); i++) {
    const t0 = performance.now();
    const res = await call(agent, base, 'POST', '/v1/customers', { source_id: `${name}-${i}` });
    if (res.status !== 200) throw new Error(`POST /v1/customers answered ${res.status}: ${JSON.stringify(res.body)}`);
    const ms = performance.now() - t0;
    latencies.push(ms);
    await pause(POST_EVERY_MS - ms);
  }
  return latencies.sort((a, b) => a - b);
}

/** Polls the -wal file's size until `done()`; answers the largest seen, in bytes. */
async function walPeak(walFile: string, done: () => boolean): Promise<number> {
  let peak = 0;
  while (!done()) {
    if (existsSync(walFile)) peak = Math.max(peak, statSync(walFile).size);
    await pause(WAL_POLL_MS);
  }
  return peak;
}

const figures = (sorted: number[]) => ({
  p50_ms: round(percentile(sorted, 50)),
  p99_ms: round(percentile(sorted, 99)),
  n: sorted.length,
});

async function serverRun() {
  const dbFile = freshDbFile();
  const server = await spawnListening([bin, 'serve', '--port', '0', '--db', dbFile, '--workers', '2'], {
    ...process.env,
    PROMO_APP_ID: APP.id,
    PROMO_APP_TOKEN: APP.token,
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const campaign = await call(agent, server.url, 'POST', '/v1/campaigns', {
      name: 'Bench',
      campaign_type: 'DISCOUNT_COUPONS',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: DISCOUNT, code_config: { length: 8 } },
    });
    if (campaign.status !== 200) throw new Error(`create campaign: ${JSON.stringify(campaign.body)}`);
    const idle = await postCustomers(agent, server.url, 'idle', (i) => i >= IDLE_POSTS);

    const started = performance.now();
    const accepted = await call(agent, server.url, 'POST', `/v1/campaigns/Bench/vouchers?vouchers_count=${COUNT}`);
    if (accepted.status !== 202) throw new Error(`add vouchers: ${JSON.stringify(accepted.body)}`);
    let status = '';
    const done = () => status === 'DONE' || status === 'FAILED';
    const poll = (async () => {
      while (!done()) {
        await pause(100);
        status = (await call(agent, server.url, 'GET', `/v1/async-actions/${accepted.body.async_action_id}`)).body
          .status;
      }
    })();
    const [during, peak] = await Promise.all([
      postCustomers(agent, server.url, 'during', done),
      walPeak(`${dbFile}-wal`, done),
      poll,
    ]);
    const seconds = (performance.now() - started) / 1000;
    if (status !== 'DONE') throw new Error(`the job ended ${status}`);
    return {
      rate: COUNT / seconds,
      seconds,
      idle: figures(idle),
      during: figures(during),
      walPeakMb: peak / 1024 / 1024,
    };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

const { served, raw, runs } = await betweenRawLoops(COUNT, serverRun);
const result = {
  bench: 'writes-beside-jobs',
  count: COUNT,
  generation_codes_per_s: Math.round(served.rate),
  generation_seconds: round(served.seconds, 1),
  raw_rows_per_s: Math.round(raw),
  raw_runs_rows_per_s: runs,
  ratio: round(served.rate / raw, 3),
  customer_post_idle: served.idle,
  customer_post_during: served.during,
  wal_peak_mb: round(served.walPeakMb, 1),
  targets: {
    customer_post_during_p99_ms: '<= 50',
    wal_peak_mb: '<= 64',
    generation: 'no more than 10% slower than before the change',
  },
  pass: served.during.p99_ms <= 50 && served.walPeakMb <= 64,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
