/**
 * The ledgers at scale: 1,000,000 members (a loyalty card held by a customer each), each
 * card with a 10-row ledger (8 additions of 15, 2 removals of 10: 100 points left, in one
 * bucket). Measures, in one run:
 *   - balance changes: POST /v1/loyalties/members/{code}/balance (+1 or -1 on a random card)
 *     at 32 concurrent keep-alive clients through the real `promo serve`, beside GET /health
 *     at the same concurrency (before and after; the baseline is their mean p99);
 *   - GET /v1/loyalties/members/{code}/transactions at a card's last page (the cursor of its
 *     second-oldest row), one request at a time, beside GET /v1/vouchers/{code};
 *   - the points-expiry sweep over every card's bucket made due (1,000,000 buckets), in
 *     process, beside one raw UPDATE of the same rows (rolled back) in the same run.
 *
 * The seeded file is kept under the OS temp dir (keyed by SEED_VERSION, the scale and the
 * ledger migration) and copied for each run, since the run changes it. BENCH_SCALE=100 runs
 * a hundredth of the data.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { createDeps } from '../../src/root/create-deps.js';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { fixedClock } from '../../src/lib/clock.js';
import { expireDueBuckets } from '../../src/modules/ledgers/points-expiry.sweep.js';
import { cachedSeed } from './support/cached-seed.js';
import { measureLatency, measureThroughput, round } from './support/load.js';
import { spawnListening } from './support/spawn.js';

const SEED_VERSION = 'ledger-v1';
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const MEMBERS = 1_000_000 / SCALE;
const ROWS_PER_CARD = 10;
const CONNECTIONS = 32;
const DURATION_MS = Number(process.env.BENCH_LEDGER_MS ?? 8000);
const BATCH = 20_000;
const CAMPAIGN = 'camp_benchLedgerProgram1';
const T_BASE = Date.UTC(2024, 0, 1);
const headers = { 'X-App-Id': 'bench', 'X-App-Token': 'bench' };

const migrationFile = fileURLToPath(new URL('../../sql/0009_ledgers.sql', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));
const key = createHash('sha256')
  .update(`${SEED_VERSION}/${SCALE}`)
  .update(readFileSync(migrationFile))
  .digest('hex')
  .slice(0, 12);
const seedFile = join(tmpdir(), `promo-bench-ledger-${key}.db`);

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Ids in insertion order, 16 characters like ours: cheap appends to the unique indexes. */
const sortable = (prefix: string, n: number): string => {
  let s = '';
  for (let v = n; s.length < 16; v = Math.floor(v / 62)) s = BASE62[v % 62] + s;
  return `${prefix}${s}`;
};
const code = (i: number) => `M${String(i).padStart(7, '0')}`;
const iso = (ms: number) => new Date(ms).toISOString();

function seedRows(sqlite: BetterSqlite3.Database): void {
  // Opening rows come from the seed itself: the trigger would add an eleventh row per card.
  const trigger = (
    sqlite.prepare("SELECT sql FROM sqlite_master WHERE name = 'vouchers_opening_rows'").get() as { sql: string }
  ).sql;
  sqlite.exec('DROP TRIGGER vouchers_opening_rows');
  const template = {
    type: 'LOYALTY_CARD',
    loyalty_card: { points: 0 },
    code_config: { length: 8, charset: BASE62, prefix: '', postfix: '', pattern: '########' },
    redemption: { quantity: null },
    is_referral_code: false,
  };
  sqlite
    .prepare(`INSERT INTO campaigns (id, name, campaign_type, type, voucher, vouchers_count, creation_status, vouchers_generation_status, created_at)
    VALUES (?, 'Bench program', 'LOYALTY_PROGRAM', 'AUTO_UPDATE', ?, ?, 'DONE', 'DONE', ?)`)
    .run(CAMPAIGN, JSON.stringify(template), MEMBERS, iso(T_BASE));
  const customer =
    sqlite.prepare(`INSERT INTO customers (id, source_id, metadata, system_metadata, loyalty_points, loyalty_card_points_to_go, created_at, updated_at)
    VALUES (?, ?, '{}', '{}', 100, 100, ?, ?)`);
  const line = sqlite.prepare(
    "INSERT INTO customer_loyalty_campaigns (customer_id, campaign_id, campaign_name, points) VALUES (?, ?, 'Bench program', 100)",
  );
  const card =
    sqlite.prepare(`INSERT INTO vouchers (id, code, campaign_id, type, loyalty_points, loyalty_balance, loyalty_next_expiration_date, loyalty_next_expiration_points,
    loyalty_pending_points, loyalty_expired_points, loyalty_subtracted_points, holder_id, created_at) VALUES (?, ?, ?, 'LOYALTY_CARD', 120, 100, '2099-12-31', 100, 0, 0, 20, ?, ?)`);
  const entry =
    sqlite.prepare(`INSERT INTO ledger_entries (id, voucher_id, campaign_id, customer_id, type, delta, balance, total, operation_type, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'MANUAL', ?)`);
  const bucket = sqlite.prepare(
    `INSERT INTO points_buckets (id, voucher_id, campaign_id, expires_on, total_points, status, created_at) VALUES (?, ?, ?, '2099-12-31', 100, 'ACTIVE', ?)`,
  );
  for (let start = 0; start < MEMBERS; start += BATCH) {
    sqlite.transaction(() => {
      for (let i = start; i < Math.min(start + BATCH, MEMBERS); i++) {
        const at = T_BASE + i * 1000;
        const cust = sortable('cust_', i);
        const voucher = sortable('v_', i);
        customer.run(cust, `member-${i}`, iso(at), iso(at));
        line.run(cust, CAMPAIGN);
        card.run(voucher, code(i), CAMPAIGN, cust, iso(at));
        let balance = 0;
        let total = 0;
        for (let k = 0; k < ROWS_PER_CARD; k++) {
          const delta = k < 8 ? 15 : -10;
          balance += delta;
          if (delta > 0) total += delta;
          entry.run(
            sortable('vtx_', i * ROWS_PER_CARD + k),
            voucher,
            CAMPAIGN,
            cust,
            delta > 0 ? 'POINTS_ADDITION' : 'POINTS_REMOVAL',
            delta,
            balance,
            total,
            iso(at + k),
          );
        }
        bucket.run(sortable('lopb_', i), voucher, CAMPAIGN, iso(at));
      }
    })();
  }
  sqlite.exec(trigger);
}

const pick = (n: number): number => Math.floor(Math.random() * n);

const seeded = cachedSeed(
  seedFile,
  ['customers', 'customer_loyalty_campaigns', 'vouchers', 'ledger_entries', 'points_buckets'],
  seedRows,
);
const dbFile = join(tmpdir(), `promo-bench-ledger-run-${process.pid}.db`);
copyFileSync(seedFile, dbFile);
try {
  const server = await spawnListening([bin, 'serve', '--port', '0', '--db', dbFile], {
    ...process.env,
    PROMO_APP_ID: 'bench',
    PROMO_APP_TOKEN: 'bench',
  });
  let balance;
  let transactions;
  let lookup;
  let healthP99;
  try {
    const health = () => measureThroughput(`${server.url}/health`, { connections: CONNECTIONS, durationMs: 3000 });
    const randomCard = () => `${server.url}/v1/loyalties/members/${code(pick(MEMBERS))}/balance`;
    const posts = (durationMs: number) => measureRandomPosts(randomCard, durationMs);
    await posts(2000); // warm-up
    const before = await health();
    balance = await posts(DURATION_MS);
    const after = await health();
    healthP99 = (before.p99_ms + after.p99_ms) / 2;
    const cards = Array.from({ length: 500 }, () => pick(MEMBERS));
    const lastPage = (i: number) =>
      `/v1/loyalties/members/${code(i)}/transactions?limit=1&starting_after_id=${sortable('vtx_', i * ROWS_PER_CARD + 1)}`;
    transactions = await measureLatency(server.url, cards.map(lastPage), { headers });
    lookup = await measureLatency(
      server.url,
      cards.map((i) => `/v1/vouchers/${code(i)}`),
      { headers },
    );
  } finally {
    await server.stop();
  }
  const sweep = measureSweep();
  console.log(
    JSON.stringify({
      bench: 'ledger',
      members: MEMBERS,
      ledger_rows: MEMBERS * ROWS_PER_CARD,
      seed_s: seeded.seconds,
      connections: CONNECTIONS,
      balance_rps: balance.rps,
      balance_p50_ms: balance.p50_ms,
      balance_p99_ms: balance.p99_ms,
      health_p99_ms: round(healthP99),
      ratio_balance_p99: round(balance.p99_ms / healthP99, 2),
      transactions_last_page_p99_ms: transactions.p99_ms,
      card_lookup_p99_ms: lookup.p99_ms,
      ratio_transactions_p99: round(transactions.p99_ms / lookup.p99_ms, 2),
      ...(await sweep),
    }),
  );
} finally {
  rmSync(dbFile, { force: true });
  rmSync(`${dbFile}-wal`, { force: true });
  rmSync(`${dbFile}-shm`, { force: true });
}

/** POSTs of +1/-1 to random cards at CONNECTIONS clients (measurePosts takes one URL: one load per client loop). */
async function measureRandomPosts(url: () => string, durationMs: number) {
  const { Agent, request } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  let n = 0;
  const post = (target: string, body: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        target,
        { agent, method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const status = await post(url(), JSON.stringify({ points: n++ % 2 === 0 ? 1 : -1 }));
        if (status !== 200) throw new Error(`balance answered ${status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return {
    rps: Math.round(latencies.length / ((performance.now() - started) / 1000)),
    p50_ms: round(at(50)),
    p99_ms: round(at(99)),
  };
}

/** Every bucket made due, then one raw UPDATE of them (rolled back) beside the sweep itself. */
async function measureSweep() {
  const sqlite = openSqlite(dbFile);
  sqlite.exec("UPDATE points_buckets SET expires_on = '2020-01-01' WHERE expires_on = '2099-12-31'");
  const raw = performance.now();
  sqlite.exec('BEGIN IMMEDIATE');
  sqlite
    .prepare(
      "UPDATE points_buckets SET status = 'EXPIRED', expired_points = total_points, total_points = 0 WHERE status = 'ACTIVE' AND expires_on < '2025-01-01'",
    )
    .run();
  sqlite.exec('ROLLBACK');
  const rawS = (performance.now() - raw) / 1000;
  sqlite.close();
  const deps = createDeps({ dbFile, clock: fixedClock('2025-06-01T00:00:00.000Z') });
  const started = performance.now();
  const expired = await expireDueBuckets(deps);
  const sweepS = (performance.now() - started) / 1000;
  await deps.close();
  return {
    sweep_buckets: expired,
    sweep_s: round(sweepS, 1),
    sweep_buckets_per_s: Math.round(expired / sweepS),
    raw_update_s: round(rawS, 2),
    ratio_sweep: round(sweepS / rawS, 1),
  };
}
