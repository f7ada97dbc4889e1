/**
 * Campaign-wide voucher jobs at scale: a campaign of 1,000,000 vouchers among 3,000,000
 * (three campaigns whose vouchers interleave in blocks of 10,000, as concurrent generation
 * jobs leave them), through the real `promo serve --workers 2`:
 *   - baseline: POST /v1/campaigns/{new}/vouchers?vouchers_count=300000 until DONE (codes/s);
 *   - update: PUT /v1/campaigns/{id} with a new discount and expiry, until its
 *     CAMPAIGN.VOUCHERS_UPDATE job is DONE (vouchers/s);
 *   - delete: DELETE /v1/campaigns/{id}, until its CAMPAIGN.VOUCHERS_DELETE job is DONE.
 * All three run one after another in the same server on the same file, so the ratios hold on
 * a noisy machine. Target: update and delete at least half the generation rate. The round
 * runs twice: alone on campaign A (the rates), then on campaign B (among 2,300,000 + the
 * generated) with a POST /v1/customers every 5 ms, whose p50/p99 per phase say what the jobs
 * cost other writers.
 *
 * The seeded file (raw inserts into the real schema, indexes rebuilt after) is kept under the
 * OS temp dir, keyed by SEED_VERSION, the scale and the migrations, and copied for each run
 * (the run changes it). Its statistics are dropped: promo never runs ANALYZE, so a real
 * database has none, and the query planner must choose well without them.
 * BENCH_SCALE=10 runs a tenth of everything: a quick check of the bench itself.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { loadMigrations } from '../../src/db/sqlite/migrate.js';
import { codeTemplate, presentCodeConfig, type CodeTemplate } from '../../src/engine/codes/index.js';
import { tempDir } from '../support/db.js';
import { cachedSeed } from './support/cached-seed.js';
import { jsonRequest, percentile, round } from './support/load.js';
import { spawnListening } from './support/spawn.js';

const SEED_VERSION = 'campaign-vouchers-v1';
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const PER_CAMPAIGN = 1_000_000 / SCALE;
const CAMPAIGNS = ['Bench A', 'Bench B', 'Bench C'];
const BLOCK = 10_000 / SCALE;
const GENERATE = 300_000 / SCALE;
const POST_EVERY_MS = 5;
const APP = { id: 'bench-app', token: 'bench-token-0123456789' };
const HEADERS = { 'X-App-Id': APP.id, 'X-App-Token': APP.token, 'Content-Type': 'application/json' };
const DISCOUNT = { type: 'PERCENT', percent_off: 10 };
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));

const migrations = loadMigrations()
  .map((m) => m.sql)
  .join('\n');
const key = createHash('sha256').update(`${SEED_VERSION}/${SCALE}`).update(migrations).digest('hex').slice(0, 12);
const seedFile = join(tmpdir(), `promo-bench-campaign-vouchers-${key}.db`);

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const base62 = (n: number, width: number): string => {
  let s = '';
  for (let v = n; s.length < width; v = Math.floor(v / 62)) s = BASE62[v % 62] + s;
  return s;
};
const random62 = (length: number): string => Array.from(randomBytes(length), (b) => BASE62[b % 62]).join('');

function seedCampaigns(sqlite: BetterSqlite3.Database, now: string): string[] {
  const template = JSON.stringify({
    type: 'DISCOUNT_VOUCHER',
    discount: DISCOUNT,
    code_config: presentCodeConfig((codeTemplate({ length: 10 }) as { template: CodeTemplate }).template),
    redemption: { quantity: null },
    is_referral_code: false,
  });
  const insert =
    sqlite.prepare(`INSERT INTO campaigns (id, name, campaign_type, type, voucher, vouchers_count, creation_status, vouchers_generation_status, created_at)
    VALUES (?, ?, 'DISCOUNT_COUPONS', 'AUTO_UPDATE', ?, ?, 'DONE', 'DONE', ?)`);
  return CAMPAIGNS.map((name, i) => {
    const id = `camp_bench${i}${random62(6)}`;
    insert.run(id, name, template, PER_CAMPAIGN, now);
    return id;
  });
}

/** Vouchers in blocks of BLOCK per campaign in turn; codes random but unique (a serial suffix). */
function seedVouchers(sqlite: BetterSqlite3.Database, campaignIds: string[]): void {
  const insert =
    sqlite.prepare(`INSERT INTO vouchers (id, code, campaign_id, type, discount, active, metadata, is_referral_code,
    redeemed_quantity, redeemed_points, publish_count, created_at) VALUES (?, ?, ?, 'DISCOUNT_VOUCHER', ?, 1, '{}', 0, 0, 0, 0, ?)`);
  const discount = JSON.stringify(DISCOUNT);
  const start = Date.UTC(2024, 0, 1);
  const total = PER_CAMPAIGN * campaignIds.length;
  for (let first = 0; first < total; first += BLOCK) {
    const campaignId = campaignIds[(first / BLOCK) % campaignIds.length] as string;
    sqlite.transaction(() => {
      for (let n = first; n < first + BLOCK; n++) {
        insert.run(
          `v_${base62(n, 8)}${random62(6)}`,
          `${random62(6)}${base62(n, 4)}`,
          campaignId,
          discount,
          new Date(start + n).toISOString(),
        );
      }
    })();
  }
}

interface Answer {
  status: string;
  async_action_id: string;
  done_count: number;
  async_actions: Array<{ id: string; type: string }>;
  result: { done_count: number };
}

const call = (agent: Agent, base: string, method: string, path: string, body?: unknown) =>
  jsonRequest<Answer>(agent, base, HEADERS, method, path, body);

interface Phase {
  rate: number;
  seconds: number;
  done: number;
  post_p50_ms?: number;
  post_p99_ms?: number;
}

/**
 * Starts a job with `start` (which answers its id) and polls it until it ends; with
 * `writers`, a customer is created every POST_EVERY_MS meanwhile. The rate counts the job's
 * done vouchers from the request to the end.
 */
async function phase(
  agent: Agent,
  base: string,
  name: string,
  writers: boolean,
  start: () => Promise<string>,
): Promise<Phase> {
  const started = performance.now();
  const jobPath = `/v1/async-actions/${await start()}`;
  let ended: Answer | undefined;
  const poll = (async () => {
    while (!ended) {
      await new Promise((r) => setTimeout(r, 50));
      const job = (await call(agent, base, 'GET', jobPath)).body;
      if (job.status === 'DONE' || job.status === 'FAILED') ended = job;
    }
  })();
  const latencies: number[] = [];
  for (let i = 0; writers && !ended; i++) {
    const t0 = performance.now();
    const res = await call(agent, base, 'POST', '/v1/customers', { source_id: `${name}-${i}` });
    if (res.status !== 200) throw new Error(`POST /v1/customers answered ${res.status}`);
    const ms = performance.now() - t0;
    latencies.push(ms);
    await new Promise((r) => setTimeout(r, Math.max(0, POST_EVERY_MS - ms)));
  }
  await poll;
  const seconds = (performance.now() - started) / 1000;
  const job = ended as Answer;
  if (job.status !== 'DONE') throw new Error(`${name}: the job ended ${job.status}: ${JSON.stringify(job.result)}`);
  latencies.sort((a, b) => a - b);
  const done = job.result.done_count;
  const posts = writers
    ? { post_p50_ms: round(percentile(latencies, 50)), post_p99_ms: round(percentile(latencies, 99)) }
    : {};
  return { rate: done / seconds, seconds: round(seconds, 1), done, ...posts };
}

type Expect = (method: string, path: string, status: number, body?: unknown) => Promise<Answer>;

/** Generation into a new campaign, then the update and the delete of a seeded campaign of PER_CAMPAIGN vouchers. */
async function jobRound(agent: Agent, base: string, expect: Expect, campaign: string, writers: boolean) {
  const gen = `Gen ${campaign}`;
  await expect('POST', '/v1/campaigns', 200, {
    name: gen,
    campaign_type: 'DISCOUNT_COUPONS',
    voucher: { type: 'DISCOUNT_VOUCHER', discount: DISCOUNT, code_config: { length: 8 } },
  });
  const path = `/v1/campaigns/${encodeURIComponent(campaign)}`;
  const generate = await phase(
    agent,
    base,
    `gen-${campaign}`,
    writers,
    async () =>
      (await expect('POST', `/v1/campaigns/${encodeURIComponent(gen)}/vouchers?vouchers_count=${GENERATE}`, 202))
        .async_action_id,
  );
  const update = await phase(agent, base, `update-${campaign}`, writers, async () => {
    await expect('PUT', path, 200, { discount: { type: 'AMOUNT', amount_off: 500 }, expiration_date: '2030-12-31' });
    const [job] = (await expect('GET', '/v1/async-actions?limit=1', 200)).async_actions;
    if (job?.type !== 'CAMPAIGN.VOUCHERS_UPDATE') throw new Error(`the newest job is ${JSON.stringify(job)}`);
    return job.id;
  });
  const remove = await phase(
    agent,
    base,
    `delete-${campaign}`,
    writers,
    async () => (await expect('DELETE', path, 202)).async_action_id,
  );
  for (const [name, p] of [
    ['update', update],
    ['delete', remove],
  ] as const) {
    if (p.done !== PER_CAMPAIGN) throw new Error(`${name} touched ${p.done} vouchers, expected ${PER_CAMPAIGN}`);
  }
  const figures = (p: Phase) => ({
    rows_per_s: Math.round(p.rate),
    seconds: p.seconds,
    ...(writers ? { customer_post_p50_ms: p.post_p50_ms, customer_post_p99_ms: p.post_p99_ms } : {}),
  });
  return {
    generate: figures(generate),
    update: figures(update),
    delete: figures(remove),
    update_ratio: round(update.rate / generate.rate, 3),
    delete_ratio: round(remove.rate / generate.rate, 3),
  };
}

/** The same round twice in one server: alone (the rates), then with a writer (what the jobs cost other writers). */
async function run(dbFile: string) {
  const server = await spawnListening([bin, 'serve', '--port', '0', '--db', dbFile, '--workers', '2'], {
    ...process.env,
    PROMO_APP_ID: APP.id,
    PROMO_APP_TOKEN: APP.token,
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const expect: Expect = async (method, path, status, body) => {
    const res = await call(agent, server.url, method, path, body);
    if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  try {
    const alone = await jobRound(agent, server.url, expect, 'Bench A', false);
    const withWriter = await jobRound(agent, server.url, expect, 'Bench B', true);
    return { alone, withWriter };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

const seeded = cachedSeed(seedFile, ['vouchers'], (sqlite) =>
  seedVouchers(sqlite, seedCampaigns(sqlite, new Date().toISOString())),
);
const dbFile = join(tempDir('promo-bench-campaign-vouchers-'), 'promo.db');
copyFileSync(seedFile, dbFile);
const sqlite = openSqlite(dbFile);
sqlite.exec('DROP TABLE IF EXISTS sqlite_stat1');
sqlite.close();

const { alone, withWriter } = await run(dbFile);
const result = {
  bench: 'campaign-vouchers',
  vouchers: PER_CAMPAIGN * CAMPAIGNS.length,
  campaign_vouchers: PER_CAMPAIGN,
  generated: GENERATE,
  seeded_now: !seeded.reused,
  seed_seconds: seeded.seconds,
  alone,
  with_customer_posts: withWriter,
  targets: { update_ratio: '>= 0.5', delete_ratio: '>= 0.5' },
  pass: [alone, withWriter].every((r) => r.update_ratio >= 0.5 && r.delete_ratio >= 0.5),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
