/**
 * Customers and their activity at scale: 1,000,000 customers and 5,000,000 events.
 *
 * Measures, through the real `promo serve` (one request at a time), p50/p99 of
 *   - GET /v1/customers?page=99&limit=100                              (list)
 *   - the same with email=<an address 20,000 customers share>          (list_email)
 *   - the same with order=-created_at                                  (list_desc)
 *   - GET /v1/customers/{id}/activity?limit=100&starting_after_id=...  (activity; a customer
 *     with 200,000 events, four per millisecond, from random positions)
 * next to GET /v1/customers/{random id} (a primary-key lookup through the same stack, measured
 * in the same run). Target: every p99 within 10x of the lookup's p99.
 *
 * Seeding 6M rows takes minutes, so the seeded database is kept under the OS temp dir, keyed
 * by SEED_VERSION and the hash of sql/0003_customers.sql: reruns skip seeding. Delete
 * $TMPDIR/promo-bench-customers-*.db to force a fresh seed. Seeding uses raw prepared inserts
 * in large transactions, with the secondary indexes dropped and rebuilt afterwards (the
 * index definitions are read back from sqlite_master, so they are exactly the migration's).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { cachedSeed } from './support/cached-seed.js';
import { measureLatency, round } from './support/load.js';
import { spawnListening } from './support/spawn.js';

const SEED_VERSION = 'customers-v1';
/** BENCH_SCALE=100 runs a hundredth of the data: a quick check of the bench itself. */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const CUSTOMERS = 1_000_000 / SCALE;
const EVENTS = 5_000_000 / SCALE;
const HEAVY_EVENTS = 200_000 / SCALE; // one customer's feed, for activity paging
const EVENTS_PER_CUSTOMER = 6; // customers 1..800,000: 4,800,000 events
const SHARED_EMAIL = 'shared@example.com'; // every 50th customer: 20,000 of them
const BATCH = 48_000;

const migrationFile = fileURLToPath(new URL('../../sql/0003_customers.sql', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));
const key = createHash('sha256')
  .update(`${SEED_VERSION}/${SCALE}`)
  .update(readFileSync(migrationFile))
  .digest('hex')
  .slice(0, 12);
const dbFile = join(tmpdir(), `promo-bench-customers-${key}.db`);

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Ids that sort in insertion order (cheap unique-index inserts) yet look like ours. */
function sortableId(prefix: string, n: number): string {
  let s = '';
  for (let v = n; s.length < 6; v = Math.floor(v / 62)) s = BASE62[v % 62] + s;
  return `${prefix}${s}${randomBytes(10).toString('base64url').replace(/[-_]/g, 'x').slice(0, 10)}`;
}

const customerId = (i: number) => sortableId('cust_', i);
const T_BASE = Date.UTC(2019, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
const CITIES = Array.from({ length: 500 }, (_, i) => `City ${i}`);
const NAMES = Array.from({ length: 1000 }, (_, i) => `Name ${i}`);
const TYPES: Array<[string, 'ACTION' | 'EFFECT', string | null]> = [
  ['customer.created', 'ACTION', null],
  ['customer.updated', 'ACTION', null],
  ['customer.order.paid', 'ACTION', null],
  ['customer.redemption.succeeded', 'ACTION', 'PROMOTION'],
  ['customer.voucher.loyalty_card.points_added', 'EFFECT', 'LOYALTY_PROGRAM'],
];

function seedCustomers(sqlite: BetterSqlite3.Database, ids: string[]): void {
  const insert = sqlite.prepare(`INSERT INTO customers
    (id, source_id, name, email, address, metadata, system_metadata, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, '{}', '{}', ?, ?)`);
  for (let start = 0; start < CUSTOMERS; start += BATCH) {
    sqlite.transaction(() => {
      for (let i = start; i < Math.min(start + BATCH, CUSTOMERS); i++) {
        const created = T_BASE + i * 30_000;
        const email = i % 50 === 0 ? SHARED_EMAIL : `user${i}@example.com`;
        const address = JSON.stringify({ city: CITIES[i % CITIES.length], country: 'PL' });
        insert.run(
          ids[i],
          `src-${String(i).padStart(7, '0')}`,
          NAMES[i % NAMES.length],
          email,
          address,
          iso(created),
          iso(created + (i % 7) * 86_400_000),
        );
      }
    })();
  }
}

function seedEvents(sqlite: BetterSqlite3.Database, ids: string[]): void {
  const insert = sqlite.prepare(`INSERT INTO customer_events
    (id, customer_id, type, category, campaign_id, campaign_type, data, channel, api_key_name, api_key_app_id, group_id, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'API', 'bench', 'bench-app', ?, ?)`);
  let n = 0;
  const one = (customer: string, k: number, at: number) => {
    const [type, category, campaignType] = TYPES[k % TYPES.length] as (typeof TYPES)[number];
    const data = `{"customer":{"id":"${customer}","object":"customer"},"seq":${k}}`;
    insert.run(
      sortableId('evcus_', n++),
      customer,
      type,
      category,
      campaignType && `camp_${campaignType}`,
      campaignType,
      data,
      `v-${k}`,
      iso(at),
    );
  };
  const heavy = ids[0] as string;
  sqlite.transaction(() => {
    for (let k = 0; k < HEAVY_EVENTS; k++) one(heavy, k, T_BASE + Math.floor(k / 4)); // four per millisecond
  })();
  const perBatch = BATCH / EVENTS_PER_CUSTOMER;
  const last = (EVENTS - HEAVY_EVENTS) / EVENTS_PER_CUSTOMER;
  for (let start = 1; start <= last; start += perBatch) {
    sqlite.transaction(() => {
      for (let i = start; i < Math.min(start + perBatch, last + 1); i++) {
        const created = T_BASE + i * 30_000;
        for (let k = 0; k < EVENTS_PER_CUSTOMER; k++) one(ids[i] as string, k, created + k * 60_000);
      }
    })();
  }
}

function samples(): { customers: string[]; heavy: string; events: string[] } {
  const sqlite = openSqlite(dbFile);
  try {
    const customers = (
      sqlite.prepare('SELECT id FROM customers ORDER BY random() LIMIT 500').all() as Array<{ id: string }>
    ).map((r) => r.id);
    const heavy = (sqlite.prepare('SELECT id FROM customers ORDER BY seq LIMIT 1').get() as { id: string }).id;
    const events = (
      sqlite
        .prepare('SELECT id FROM customer_events WHERE customer_id = ? ORDER BY random() LIMIT 500')
        .all(heavy) as Array<{ id: string }>
    ).map((r) => r.id);
    return { customers, heavy, events };
  } finally {
    sqlite.close();
  }
}

const seeded = cachedSeed(dbFile, ['customers', 'customer_events'], (sqlite) => {
  const ids = Array.from({ length: CUSTOMERS }, (_, i) => customerId(i));
  seedCustomers(sqlite, ids);
  seedEvents(sqlite, ids);
});
const { customers, heavy, events } = samples();
const headers = { 'X-App-Id': 'bench', 'X-App-Token': 'bench-token' };
const server = await spawnListening([bin, 'serve', '--port', '0', '--db', dbFile], {
  ...process.env,
  PROMO_APP_ID: 'bench',
  PROMO_APP_TOKEN: 'bench-token',
});
try {
  const measure = (paths: string[]) => measureLatency(server.url, paths, { count: 400, warmup: 40, headers });
  const lookup = await measure(customers.map((id) => `/v1/customers/${id}`));
  const list = await measure(['/v1/customers?page=99&limit=100']);
  const listEmail = await measure([`/v1/customers?page=99&limit=100&email=${SHARED_EMAIL}`]);
  const listDesc = await measure(['/v1/customers?page=99&limit=100&order=-created_at']);
  const activity = await measure(
    events.map((id) => `/v1/customers/${heavy}/activity?limit=100&starting_after_id=${id}`),
  );
  // The lookup is measured before and after the rest; the lower p99 is the (stricter) baseline.
  const lookupAgain = await measure(customers.map((id) => `/v1/customers/${id}`));
  const baseline = Math.min(lookup.p99_ms, lookupAgain.p99_ms);
  const ratio = (p99: number) => round(p99 / baseline, 2);
  const figures = { list, list_email: listEmail, list_desc: listDesc, activity };
  console.log(
    JSON.stringify({
      bench: 'customers',
      customers: CUSTOMERS,
      events: EVENTS,
      seeded_now: !seeded.reused,
      seed_seconds: seeded.seconds,
      lookup_p50_ms: Math.min(lookup.p50_ms, lookupAgain.p50_ms),
      lookup_p99_ms: baseline,
      ...Object.fromEntries(
        Object.entries(figures).flatMap(([name, r]) => [
          [`${name}_p50_ms`, r.p50_ms],
          [`${name}_p99_ms`, r.p99_ms],
          [`${name}_ratio`, ratio(r.p99_ms)],
        ]),
      ),
      max_ratio: Math.max(...Object.values(figures).map((r) => ratio(r.p99_ms))),
      ratio_target: 10,
    }),
  );
} finally {
  await server.stop();
}
