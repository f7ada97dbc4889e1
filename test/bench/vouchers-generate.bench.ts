/**
 * Voucher generation at scale: POST /v1/campaigns/{id}/vouchers?vouchers_count=1000000 through
 * the real `promo serve --workers 2`, until the async action is DONE.
 *
 * Baseline, in the same run: a raw better-sqlite3 prepared-insert loop of as many random codes
 * into the same schema (another fresh file from the same migrations, the same pragmas as a
 * worker's connection, the same bound columns as the worker's rows, codes and ids drawn
 * before the clock starts, one transaction), run before and after the server. Figures: rows/s of both and their ratio (target
 * >= 0.6), the server's peak RSS (VmHWM; target <= 400 MB), and p99 of GET /v1/vouchers/{code}
 * sent one at a time, every 5 ms, during the job (target <= 50 ms).
 *
 * BENCH_COUNT=100000 runs a smaller job: a quick check of the bench itself.
 */
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freshDbFile } from '../support/db.js';
import { jsonRequest, percentile, round } from './support/load.js';
import { betweenRawLoops } from './support/raw-insert.js';
import { spawnListening } from './support/spawn.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 1_000_000);
const KNOWN_CODES = 50;
const GET_EVERY_MS = 5;
const APP_ID = 'bench-app';
const APP_TOKEN = 'bench-token-0123456789';
const HEADERS = { 'X-App-Id': APP_ID, 'X-App-Token': APP_TOKEN, 'Content-Type': 'application/json' };
const DISCOUNT = { type: 'PERCENT', percent_off: 10 };
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));

/** The fields of the answers this bench reads. */
interface Answer {
  code: string;
  status: string;
  vouchers_count: number;
  async_action_id: string;
}

const call = (agent: Agent, base: string, method: string, path: string, body?: unknown) =>
  jsonRequest<Answer>(agent, base, HEADERS, method, path, body);

const peakRssMb = (pid: number): number => {
  const line =
    readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:')) ?? '';
  return Number(/(\d+)/.exec(line)?.[1] ?? 0) / 1024;
};

async function serverRun(): Promise<{ rate: number; peakRss: number; p99: number; p50: number; gets: number }> {
  const dbFile = freshDbFile();
  const env = { ...process.env, PROMO_APP_ID: APP_ID, PROMO_APP_TOKEN: APP_TOKEN };
  const server = await spawnListening([bin, 'serve', '--port', '0', '--db', dbFile, '--workers', '2'], env);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const campaign = await call(agent, server.url, 'POST', '/v1/campaigns', {
      name: 'Bench',
      campaign_type: 'DISCOUNT_COUPONS',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: DISCOUNT, code_config: { length: 8 } },
    });
    if (campaign.status !== 200) throw new Error(`create campaign: ${JSON.stringify(campaign.body)}`);
    const known: string[] = [];
    for (let i = 0; i < KNOWN_CODES; i++)
      known.push((await call(agent, server.url, 'POST', '/v1/campaigns/Bench/vouchers')).body.code);

    const started = performance.now();
    const accepted = await call(agent, server.url, 'POST', `/v1/campaigns/Bench/vouchers?vouchers_count=${COUNT}`);
    if (accepted.status !== 202) throw new Error(`add vouchers: ${JSON.stringify(accepted.body)}`);
    const jobPath = `/v1/async-actions/${accepted.body.async_action_id}`;
    let done = false;
    let status = '';
    const poll = (async () => {
      while (!done) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await call(agent, server.url, 'GET', jobPath)).body.status;
        done = status === 'DONE' || status === 'FAILED';
      }
    })();
    // One GET every GET_EVERY_MS (a steady read load, not a loop that would take a core).
    const latencies: number[] = [];
    for (let i = 0; !done; i++) {
      const t0 = performance.now();
      const res = await call(agent, server.url, 'GET', `/v1/vouchers/${known[i % known.length]}`);
      if (res.status !== 200) throw new Error(`GET voucher answered ${res.status}`);
      const ms = performance.now() - t0;
      latencies.push(ms);
      await new Promise((r) => setTimeout(r, Math.max(0, GET_EVERY_MS - ms)));
    }
    await poll;
    const seconds = (performance.now() - started) / 1000;
    if (status !== 'DONE') throw new Error(`the job ended ${status}`);
    const count = (await call(agent, server.url, 'GET', '/v1/campaigns/Bench')).body.vouchers_count;
    if (count !== COUNT + KNOWN_CODES)
      throw new Error(`campaign holds ${count} vouchers, expected ${COUNT + KNOWN_CODES}`);
    latencies.sort((a, b) => a - b);
    const peakRss = peakRssMb(server.child.pid as number);
    return {
      rate: COUNT / seconds,
      peakRss,
      p99: percentile(latencies, 99),
      p50: percentile(latencies, 50),
      gets: latencies.length,
    };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

const { served, raw, runs } = await betweenRawLoops(COUNT, serverRun);
const ratio = served.rate / raw;
const result = {
  bench: 'vouchers-generate',
  count: COUNT,
  server_rows_per_s: Math.round(served.rate),
  raw_rows_per_s: Math.round(raw),
  raw_runs_rows_per_s: runs,
  ratio: round(ratio, 3),
  peak_rss_mb: round(served.peakRss, 1),
  get_voucher_p50_ms: round(served.p50),
  get_voucher_p99_ms: round(served.p99),
  get_requests: served.gets,
  targets: { ratio: '>= 0.6', peak_rss_mb: '<= 400', get_voucher_p99_ms: '<= 50' },
  pass: ratio >= 0.6 && served.peakRss <= 400 && served.p99 <= 50,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
