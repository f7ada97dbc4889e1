/**
 * Hot paths (issue 16): req/s and p99 at 16 keep-alive connections (autocannon) through the real
 * `promo serve`, one after another in one run: GET /health (the baseline: Koa, the request
 * id, the log line and the error renderer, no database), GET /v1/vouchers/{code},
 * GET /v1/customers/{id} and POST /client/v1/validations (one percent-off voucher on a
 * 3-item order, client key and origin). Targets: the reads at least 0.5x /health, the
 * validation at least 0.25x.
 *
 * Beside each figure, the server's CPU time per request (from /proc, Linux only): on a shared
 * machine req/s moves with the neighbours' load, CPU time per request much less.
 *
 * Last, in the same run, the issue's own yardstick for a read: a bare Koa app doing one cached
 * better-sqlite3 select of the same voucher row on the same file (support/bare-koa-server.ts),
 * and its `/health`. When the issue was filed that read reached ~0.95x of `/health`; the ratio
 * of promo's voucher read to it says how much of a read's cost is still promo's own.
 *
 * Promo keeps a GET's answer while nothing commits (http/kept-answers.ts), so the
 * reads above repeat one URL's kept answer. The same reads with every request asking for
 * another URL (`?read=<n>`, which the routes ignore) measure a read that finds nothing kept:
 * what each read costs while something commits between reads.
 *
 * BENCH_PROMO_BIN runs another checkout's binary (the figures before a change, measured the
 * same way); BENCH_HOT_MS sets each measurement's duration.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cannon } from './support/cannon.js';
import { measured } from './support/cpu.js';
import { round } from './support/load.js';
import { benchHeaders, BENCH_KEY_ENV, post, PROMO_BIN } from './support/api.js';
import { spawnListening } from './support/spawn.js';

const CONNECTIONS = 16;
const DURATION_MS = Number(process.env.BENCH_HOT_MS ?? 5000);
const bin = process.env.BENCH_PROMO_BIN ?? PROMO_BIN;
const CLIENT_ENV = {
  PROMO_CLIENT_APP_ID: 'bench-client',
  PROMO_CLIENT_TOKEN: 'bench-client',
  PROMO_CLIENT_ORIGINS: '*',
};
const bareKoa = fileURLToPath(new URL('./support/bare-koa-server.ts', import.meta.url));
const clientHeaders = {
  'X-Client-Application-Id': 'bench-client',
  'X-Client-Token': 'bench-client',
  Origin: 'https://shop.example',
};

async function seed(base: string): Promise<string> {
  await post(`${base}/v1/vouchers/PCT-BENCH`, {
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'PERCENT', percent_off: 10 },
    metadata: { tier: 'gold' },
  });
  const res = await fetch(`${base}/v1/customers`, {
    method: 'POST',
    headers: { ...benchHeaders, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      source_id: 'c-bench',
      name: 'Bench Customer',
      email: 'bench@example.com',
      metadata: { tier: 'gold' },
    }),
  });
  if (res.status !== 200) throw new Error(`POST /v1/customers: ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

const validationBody = () => ({
  redeemables: [{ object: 'voucher', id: 'PCT-BENCH' }],
  order: { items: [1, 2, 3].map((i) => ({ product_id: null, quantity: i, price: 500 * i })) },
});

/** The bare Koa app on the same file: its `/health` and its one-select voucher read. */
async function bareKoaFigures(dbFile: string) {
  const bare = await spawnListening(['--import', 'tsx', bareKoa, dbFile]);
  try {
    const get = (path: string, durationMs = DURATION_MS) =>
      cannon(`${bare.url}${path}`, { connections: CONNECTIONS, durationMs });
    await get('/health', 1000);
    await get('/v1/vouchers/PCT-BENCH', 1000);
    const health = await measured(bare.child.pid, () => get('/health'));
    const voucher = await measured(bare.child.pid, () => get('/v1/vouchers/PCT-BENCH'));
    return { health, voucher_get: voucher };
  } finally {
    await bare.stop();
  }
}

/** The bare read's CPU per request over each read's: 1 when a read costs what the bare one does. */
const cpuRatios = (bare: CpuFigure, reads: Record<string, CpuFigure>) =>
  Object.fromEntries(
    Object.entries(reads).map(([name, read]) => [
      name,
      bare.server_cpu_us_per_req === null || read.server_cpu_us_per_req === null
        ? null
        : round(bare.server_cpu_us_per_req / read.server_cpu_us_per_req, 2),
    ]),
  );
type CpuFigure = { server_cpu_us_per_req: number | null };

const dir = mkdtempSync(join(tmpdir(), 'promo-bench-'));
const dbFile = join(dir, 'bench.db');
const server = await spawnListening([bin, 'serve', '--port', '0', '--db', dbFile], {
  ...process.env,
  ...BENCH_KEY_ENV,
  ...CLIENT_ENV,
});
try {
  const customerId = await seed(server.url);
  const get = (path: string, headers: Record<string, string> = {}, durationMs = DURATION_MS, eachNew = false) =>
    cannon(`${server.url}${path}`, { connections: CONNECTIONS, durationMs, headers, eachNew });
  const validate = (durationMs = DURATION_MS) =>
    cannon(`${server.url}/client/v1/validations`, {
      connections: CONNECTIONS,
      durationMs,
      method: 'POST',
      headers: clientHeaders,
      body: validationBody(),
    });
  // Warm-up: JIT, the statement cache, the key map.
  await get('/health', {}, 1000);
  await get('/v1/vouchers/PCT-BENCH', benchHeaders, 1000);
  await get(`/v1/customers/${customerId}`, benchHeaders, 1000);
  await validate(1000);
  const pid = server.child.pid;
  const health = await measured(pid, () => get('/health'));
  const voucher = await measured(pid, () => get('/v1/vouchers/PCT-BENCH', benchHeaders));
  const customer = await measured(pid, () => get(`/v1/customers/${customerId}`, benchHeaders));
  const validation = await measured(pid, () => validate());
  const voucherNew = await measured(pid, () => get('/v1/vouchers/PCT-BENCH', benchHeaders, DURATION_MS, true));
  const customerNew = await measured(pid, () => get(`/v1/customers/${customerId}`, benchHeaders, DURATION_MS, true));
  const bare = await bareKoaFigures(dbFile);
  console.log(
    JSON.stringify({
      bench: 'hot-paths',
      connections: CONNECTIONS,
      duration_ms: DURATION_MS,
      health,
      voucher_get: voucher,
      customer_get: customer,
      validation_post: validation,
      voucher_get_each_new: voucherNew,
      customer_get_each_new: customerNew,
      ratio_voucher_to_health: round(voucher.rps / health.rps, 2),
      ratio_customer_to_health: round(customer.rps / health.rps, 2),
      ratio_validation_to_health: round(validation.rps / health.rps, 2),
      bare_koa: bare,
      ratio_bare_voucher_to_bare_health: round(bare.voucher_get.rps / bare.health.rps, 2),
      ratio_voucher_to_bare_voucher: round(voucher.rps / bare.voucher_get.rps, 2),
      ratio_customer_to_bare_voucher: round(customer.rps / bare.voucher_get.rps, 2),
      ratio_voucher_each_new_to_bare_voucher: round(voucherNew.rps / bare.voucher_get.rps, 2),
      ratio_customer_each_new_to_bare_voucher: round(customerNew.rps / bare.voucher_get.rps, 2),
      cpu_ratios_to_bare_voucher: cpuRatios(bare.voucher_get, { voucher, customer, voucherNew, customerNew }),
    }),
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
