/**
 * Orders: POST /v1/orders latency at 32 concurrent keep-alive clients through the real
 * `promo serve`, next to GET /health at the same concurrency on the same server in the same
 * run (measured before and after the orders; the baseline is their mean p99).
 *
 * Each order is PAID, has 3 items naming catalog products by source_id (prices from the
 * catalog, quantities 1-3) and a customer by source_id: half of them new (created with a
 * name), half one of 500 existing customers. So a request upserts a customer, resolves the
 * items, writes the order and its items, counts it in the customer's summary, writes
 * customer.order.created and .paid (and customer.created for new customers) and claims the
 * paid-order seam, in one synchronous=FULL transaction.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measurePosts, measureThroughput, round } from './support/load.js';
import { benchHeaders as headers, BENCH_KEY_ENV, pick, post, PROMO_BIN } from './support/api.js';
import { spawnListening } from './support/spawn.js';

/** Another checkout's binary (the figures before a change, measured the same way). */
const bin = process.env.BENCH_PROMO_BIN ?? PROMO_BIN;

const CONNECTIONS = 32;
const PRODUCTS = 50;
const CUSTOMERS = 500;
const DURATION_MS = Number(process.env.BENCH_ORDERS_MS ?? 8000);

async function seed(base: string): Promise<void> {
  for (let i = 0; i < PRODUCTS; i++)
    await post(`${base}/v1/products`, { source_id: `p-${i}`, name: `Product ${i}`, price: 100 * (i + 1) });
  for (let i = 0; i < CUSTOMERS; i++)
    await post(`${base}/v1/customers`, { source_id: `c-${i}`, name: `Customer ${i}` });
}

let sequence = 0;
function orderBody() {
  const n = sequence++;
  return {
    status: 'PAID',
    customer: n % 2 === 0 ? { source_id: `new-${n}`, name: `New ${n}` } : { source_id: `c-${pick(CUSTOMERS)}` },
    items: Array.from({ length: 3 }, () => ({
      source_id: `p-${pick(PRODUCTS)}`,
      related_object: 'product',
      quantity: 1 + pick(3),
    })),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'promo-bench-'));
const server = await spawnListening([bin, 'serve', '--port', '0', '--db', join(dir, 'bench.db')], {
  ...process.env,
  ...BENCH_KEY_ENV,
});
try {
  await seed(server.url);
  const health = () => measureThroughput(`${server.url}/health`, { connections: CONNECTIONS, durationMs: 3000 });
  const orders = (durationMs: number) =>
    measurePosts(`${server.url}/v1/orders`, { connections: CONNECTIONS, durationMs, headers, body: orderBody });
  await orders(2000); // warm-up
  const before = await health();
  const measured = await orders(DURATION_MS);
  const after = await health();
  const healthP99 = (before.p99_ms + after.p99_ms) / 2;
  console.log(
    JSON.stringify({
      bench: 'orders',
      connections: CONNECTIONS,
      orders_rps: measured.rps,
      orders_p50_ms: measured.p50_ms,
      orders_p99_ms: measured.p99_ms,
      orders_stored: sequence,
      health_rps: Math.round((before.rps + after.rps) / 2),
      health_p99_ms: round(healthP99),
      ratio_p99: round(measured.p99_ms / healthP99, 2),
    }),
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
