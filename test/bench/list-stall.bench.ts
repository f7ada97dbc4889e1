/**
 * One list request must not freeze the server (issue 9 point 2; docs/architecture.md, Design rules): 1,000,000
 * vouchers in one campaign and 200,000 redemptions, and one client looping over the deepest
 * voucher lists (GET /v1/vouchers?campaign=Bench&order=<each order, both directions>&page=100&limit=100,
 * and the same without the campaign), then the same lists and the redemption list with the
 * filters no index serves (`$is_not`, `$not_in`, `$contains`, a junction of "or": issue 27
 * point 4, checked in the bounded window of src/db/filter-window.ts), against the real
 * `promo serve`, while GET /health is sent every 5 ms. Figures: /health p99 during each loop
 * (target < 50 ms) next to /health p99 idle, measured in the same run before the loops; the
 * list requests' p50/p99.
 *
 * First, on the seeded (ANALYZEd) database, the plan of every statement those lists run is
 * read (test/support/query-plans.ts): `plans` lists any table scan or temporary sort, and any
 * read of the table outside a filter window of FILTER_WINDOW_ROWS rows for the filtered lists.
 *
 * The seeded database is kept under the OS temp dir, keyed by SEED_VERSION and the migrations'
 * hash (see cached-seed.ts); delete $TMPDIR/promo-bench-list-stall-*.db to seed again.
 * BENCH_SCALE=100 runs a hundredth of the data; BENCH_SECONDS sets the loop's length (10).
 */
import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { loadMigrations } from '../../src/db/sqlite/migrate.js';
import { ALPHANUMERIC, codeGenerator, type CodeTemplate } from '../../src/engine/codes/index.js';
import { fixedClock } from '../../src/lib/clock.js';
import { FILTER_WINDOW_ROWS, WINDOW_ALIAS } from '../../src/db/filter-window.js';
import { parseRedemptionsListQuery } from '../../src/modules/redemptions/list/redemptions-list.schemas.js';
import { listRedemptions } from '../../src/modules/redemptions/list/redemptions-list.service.js';
import { parseVouchersListQuery, VOUCHER_ORDER_FIELDS } from '../../src/modules/vouchers/vouchers.schemas.js';
import { listVouchers } from '../../src/modules/vouchers/vouchers.service.js';
import { explain, planProblems, readsTableRange, recordingKysely, windowBounds } from '../support/query-plans.js';
import { cachedSeed } from './support/cached-seed.js';
import { round } from './support/load.js';
import { spawnListening } from './support/spawn.js';

const SEED_VERSION = 'list-stall-v2';
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const VOUCHERS = 1_000_000 / SCALE;
const REDEMPTIONS = VOUCHERS / 5;
const LOOP_MS = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
const HEALTH_EVERY_MS = 5;
const IDLE_HEALTH = 1000;
const CAMPAIGN = { id: 'camp_bench00000000', name: 'Bench' };
const BATCH = 50_000;
const APP = { id: 'bench-app', token: 'bench-token-0123456789' };
const HEADERS = { 'X-App-Id': APP.id, 'X-App-Token': APP.token };
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));

const migrationsHash = createHash('sha256')
  .update(
    loadMigrations()
      .map((m) => m.sql)
      .join('\n'),
  )
  .digest('hex');
const key = createHash('sha256').update(`${SEED_VERSION}/${SCALE}/${migrationsHash}`).digest('hex').slice(0, 12);
const dbFile = join(tmpdir(), `promo-bench-list-stall-${key}.db`);

const T_BASE = Date.UTC(2023, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
const template = (prefix: string, length: number): CodeTemplate => ({
  prefix,
  postfix: '',
  pattern: '#'.repeat(length),
  charset: Array.from(ALPHANUMERIC),
});

/**
 * Vouchers as the API writes them, with the spread a real campaign has: created in order over
 * a year, half of them updated later (at random times, so the updated_at order is unrelated
 * to the table's order), random codes.
 */
function seedVouchers(sqlite: BetterSqlite3.Database): void {
  sqlite
    .prepare(`INSERT INTO campaigns (id, name, campaign_type, type, voucher, vouchers_count, creation_status, vouchers_generation_status, created_at)
      VALUES (?, ?, 'DISCOUNT_COUPONS', 'AUTO_UPDATE', ?, ?, 'DONE', 'DONE', ?)`)
    .run(
      CAMPAIGN.id,
      CAMPAIGN.name,
      JSON.stringify({ type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } }),
      VOUCHERS,
      iso(T_BASE),
    );
  const insert =
    sqlite.prepare(`INSERT INTO vouchers (id, code, campaign_id, type, discount, metadata, created_at, updated_at)
    VALUES (?, ?, ?, 'DISCOUNT_VOUCHER', '{"type":"PERCENT","percent_off":10}', ?, ?, ?)`);
  const codes = new Set<string>();
  const nextCode = codeGenerator(template('', 10));
  const nextId = codeGenerator(template('v_', 16));
  const year = 365 * 86_400_000;
  for (let start = 0; start < VOUCHERS; start += BATCH) {
    sqlite.transaction(() => {
      for (let i = start; i < Math.min(start + BATCH, VOUCHERS); i++) {
        let code = nextCode();
        while (codes.has(code)) code = nextCode();
        codes.add(code);
        const created = T_BASE + Math.floor((i / VOUCHERS) * year);
        const updated = i % 2 === 0 ? null : iso(created + Math.floor(Math.random() * (T_BASE + year - created)));
        insert.run(nextId(), code, CAMPAIGN.id, `{"batch":${Math.floor(i / BATCH)},"n":${i}}`, iso(created), updated);
      }
    })();
  }
  seedRedemptions(sqlite, [...codes].slice(0, REDEMPTIONS));
}

/** Redemptions of the seeded vouchers over the same year, a tenth of them failed. */
function seedRedemptions(sqlite: BetterSqlite3.Database, codes: string[]): void {
  const insert =
    sqlite.prepare(`INSERT INTO redemptions (id, object, created_at, customer_id, result, status, failure_code, related_object_type, related_object_id, voucher_code, campaign_name, channel_type, amount)
    VALUES (?, 'redemption', ?, ?, ?, ?, ?, 'voucher', ?, ?, ?, 'API', 100)`);
  const year = 365 * 86_400_000;
  for (let start = 0; start < REDEMPTIONS; start += BATCH) {
    sqlite.transaction(() => {
      for (let i = start; i < Math.min(start + BATCH, REDEMPTIONS); i++) {
        const failed = i % 10 === 9;
        const code = codes[(i * 7919) % codes.length] as string;
        insert.run(
          `r_bench${i}`,
          iso(T_BASE + Math.floor((i / REDEMPTIONS) * year)),
          `cust_bench${i % 1000}`,
          failed ? 'FAILURE' : 'SUCCESS',
          failed ? 'FAILED' : 'SUCCEEDED',
          failed ? 'voucher_expired' : null,
          `v_${code}`,
          code,
          CAMPAIGN.name,
        );
      }
    })();
  }
}

/** The deepest page of each order, in the campaign and over every voucher. */
const heavyLists = VOUCHER_ORDER_FIELDS.flatMap((field) => [field, `-${field}`]).flatMap((order) => [
  `/v1/vouchers?campaign=${CAMPAIGN.name}&order=${order}&page=100&limit=100`,
  `/v1/vouchers?order=${order}&page=100&limit=100`,
]);

/**
 * The filters no index serves, each reading its whole window of FILTER_WINDOW_ROWS rows, at the
 * deepest page inside it, in every order and beside the campaign's index.
 */
const WINDOW_PAGE = FILTER_WINDOW_ROWS / 100 - 1;
const f = (field: string, op: string, value: string) =>
  `filters[${field}][conditions][${op}]=${encodeURIComponent(value)}`;
const windowedLists = [
  ...VOUCHER_ORDER_FIELDS.flatMap((field) => [field, `-${field}`]).flatMap((order) => [
    `/v1/vouchers?order=${order}&page=${WINDOW_PAGE}&limit=100&${f('code', '$is_not', 'X')}`,
    `/v1/vouchers?campaign=${CAMPAIGN.name}&order=${order}&page=${WINDOW_PAGE}&limit=100&${f('code', '$contains', 'zz')}`,
    `/v1/vouchers?order=${order}&page=${WINDOW_PAGE}&limit=100&filters[junction]=or&${f('code', '$starts_with', 'A')}&${f('campaign_ids', '$in][0', CAMPAIGN.id)}&${f('campaign_ids', '$in][1', 'camp_x')}`,
  ]),
  ...['created_at', '-created_at', 'voucher_code', '-customer_id'].flatMap((order) => [
    `/v1/redemptions?order=${order}&page=${WINDOW_PAGE}&limit=100&${f('voucher_code', '$not_in][0', 'A')}&${f('voucher_code', '$not_in][1', 'B')}`,
    `/v1/redemptions?order=${order}&page=${WINDOW_PAGE}&limit=100&filters[junction]=or&${f('failure_code', '$is', 'voucher_expired')}&${f('voucher_code', '$ends_with', 'Q')}`,
  ]),
  `/v1/redemptions?campaign=${CAMPAIGN.name}&page=${WINDOW_PAGE}&limit=100&${f('voucher_code', '$is_not', 'A')}`,
];

/** `?a=b&c=d` as the object Koa's query is. */
const queryOf = (path: string): Record<string, string> => Object.fromEntries(new URL(path, 'http://x').searchParams);

/** The plan of every statement the heavy lists run, read on the seeded database's statistics. */
async function planProblemsOnSeed(): Promise<string[]> {
  const sqlite = openSqlite(dbFile);
  const statements: CompiledQuery[] = [];
  const db = recordingKysely(sqlite, (query) => statements.push(query));
  try {
    for (const field of VOUCHER_ORDER_FIELDS) {
      for (const direction of ['asc', 'desc'] as const) {
        for (const campaign of [CAMPAIGN.name, undefined]) {
          await listVouchers(
            { db, clock: fixedClock(iso(T_BASE)) },
            { limit: 100, page: 100, order: { field, direction }, campaign },
          );
        }
      }
    }
    const problems = statements.flatMap((s) => planProblems(explain(sqlite, s)).map((p) => `${s.sql} -> ${p}`));
    return [...problems, ...(await windowedPlanProblems(sqlite))];
  } finally {
    sqlite.close();
  }
}

/** The windowed lists' statements: no scan or sort, and every read of the list's table inside a window of the bound. */
async function windowedPlanProblems(sqlite: BetterSqlite3.Database): Promise<string[]> {
  const problems: string[] = [];
  for (const path of windowedLists) {
    const statements: CompiledQuery[] = [];
    const recording = recordingKysely(sqlite, (query) => statements.push(query));
    const table = path.startsWith('/v1/vouchers') ? 'vouchers' : 'redemptions';
    const query = queryOf(path);
    if (table === 'vouchers')
      await listVouchers({ db: recording, clock: fixedClock(iso(T_BASE)) }, parseVouchersListQuery(query));
    else await listRedemptions({ db: recording }, parseRedemptionsListQuery(query));
    for (const s of statements) {
      const plan = explain(sqlite, s);
      const bounds = windowBounds(s, WINDOW_ALIAS);
      const unbounded =
        readsTableRange(plan, table) && (bounds.length === 0 || bounds.some((b) => b !== FILTER_WINDOW_ROWS));
      problems.push(
        ...planProblems(plan).map((p) => `${s.sql} -> ${p}`),
        ...(unbounded ? [`${s.sql} -> reads ${table} outside a window`] : []),
      );
    }
  }
  return problems;
}

function get(agent: Agent, base: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { agent, headers: HEADERS }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve(res.statusCode) : reject(new Error(`GET ${path} answered ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const summary = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted.at(-1) ?? 0),
  };
};

/** GET /health every HEALTH_EVERY_MS until `done()`; each latency. */
async function probeHealth(agent: Agent, base: string, done: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!done()) {
    const t0 = performance.now();
    await get(agent, base, '/health');
    const ms = performance.now() - t0;
    latencies.push(ms);
    await sleep(Math.max(0, HEALTH_EVERY_MS - ms));
  }
  return latencies;
}

/** One client looping over `paths` for LOOP_MS while /health is probed: both latencies. */
async function loopWhileProbing(healthAgent: Agent, listAgent: Agent, base: string, paths: string[]) {
  let looping = true;
  const lists: number[] = [];
  const loop = (async () => {
    const deadline = performance.now() + LOOP_MS;
    for (let i = 0; performance.now() < deadline; i++) {
      const t0 = performance.now();
      await get(listAgent, base, paths[i % paths.length] as string);
      lists.push(performance.now() - t0);
    }
    looping = false;
  })();
  const during = summary(await probeHealth(healthAgent, base, () => !looping));
  await loop;
  return { list: summary(lists), during };
}

const seeded = cachedSeed(dbFile, ['vouchers', 'redemptions'], seedVouchers);
const plans = await planProblemsOnSeed();
const server = await spawnListening([bin, 'serve', '--port', '0', '--db', dbFile], {
  ...process.env,
  PROMO_APP_ID: APP.id,
  PROMO_APP_TOKEN: APP.token,
});
const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
const listAgent = new Agent({ keepAlive: true, maxSockets: 1 });
try {
  for (const path of [...heavyLists, ...windowedLists]) await get(listAgent, server.url, path); // warm the page cache
  let idleCount = 0;
  const idle = summary(await probeHealth(healthAgent, server.url, () => idleCount++ >= IDLE_HEALTH));
  const { list, during } = await loopWhileProbing(healthAgent, listAgent, server.url, heavyLists);
  const windowed = await loopWhileProbing(healthAgent, listAgent, server.url, windowedLists);
  console.log(
    JSON.stringify({
      bench: 'list-stall',
      vouchers: VOUCHERS,
      redemptions: REDEMPTIONS,
      filter_window_rows: FILTER_WINDOW_ROWS,
      seeded_now: !seeded.reused,
      seed_seconds: seeded.seconds,
      plans:
        plans.length === 0 ? 'every statement reads an index in order (filtered lists: inside their window)' : plans,
      list_p50_ms: list.p50_ms,
      list_p99_ms: list.p99_ms,
      list_max_ms: list.max_ms,
      list_requests: list.n,
      health_idle_p50_ms: idle.p50_ms,
      health_idle_p99_ms: idle.p99_ms,
      health_during_p50_ms: during.p50_ms,
      health_during_p99_ms: during.p99_ms,
      health_during_max_ms: during.max_ms,
      health_requests: during.n,
      windowed_list_p50_ms: windowed.list.p50_ms,
      windowed_list_p99_ms: windowed.list.p99_ms,
      windowed_list_max_ms: windowed.list.max_ms,
      windowed_list_requests: windowed.list.n,
      health_during_windowed_p50_ms: windowed.during.p50_ms,
      health_during_windowed_p99_ms: windowed.during.p99_ms,
      health_during_windowed_max_ms: windowed.during.max_ms,
      target: { health_during_p99_ms: '< 50', health_during_windowed_p99_ms: '< 50' },
      pass: plans.length === 0 && during.p99_ms < 50 && windowed.during.p99_ms < 50,
    }),
  );
} finally {
  healthAgent.destroy();
  listAgent.destroy();
  await server.stop();
}
