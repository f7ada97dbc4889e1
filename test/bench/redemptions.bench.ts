/**
 * Redemptions: POST /v1/redemptions at 32 concurrent keep-alive clients through the real
 * `promo serve`, each a stack of one percent-off voucher and one gift card (30 credits) on a
 * new 3-item order of one of 500 customers. Beside them, in the same run, GET /health and
 * GET /v1/vouchers/{code} (4 clients each) measure what the writes do to everything else; the
 * baseline is GET /health alone before the load.
 *
 * A request upserts the customer, stores the order and its items, loads and checks both
 * redeemables, computes the stack, claims the voucher's counter, debits the gift card through
 * its ledger, writes the parent and two child redemptions, the order's discounts and
 * redemptions map, the summary and the events: one synchronous=FULL transaction.
 *
 * After the merge with the validation-rules branch the percent-off voucher gets a
 * product-collection rule (issue 12's benchmark): add it in seed() with
 * POST /v1/validation-rules and its assignment to PCT-BENCH.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measurePosts, measureThroughput, round } from './support/load.js';
import { benchHeaders as headers, BENCH_KEY_ENV, pick, post, PROMO_BIN as bin } from './support/api.js';
import { spawnListening } from './support/spawn.js';

const CONNECTIONS = 32;
const CUSTOMERS = 500;
const GIFT_CARDS = 100;
const DURATION_MS = Number(process.env.BENCH_REDEMPTIONS_MS ?? 8000);

async function seed(base: string): Promise<void> {
  await post(`${base}/v1/vouchers/PCT-BENCH`, { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } });
  for (let i = 0; i < GIFT_CARDS; i++) await post(`${base}/v1/vouchers/GIFT-BENCH-${i}`, { type: 'GIFT_VOUCHER', gift: { amount: 100_000_000 } });
  for (let i = 0; i < CUSTOMERS; i++) await post(`${base}/v1/customers`, { source_id: `c-${i}`, name: `Customer ${i}` });
}

let sequence = 0;
function redemptionBody() {
  sequence++;
  return {
    customer: { source_id: `c-${pick(CUSTOMERS)}` },
    order: { items: Array.from({ length: 3 }, (_, i) => ({ product_id: null, quantity: 1 + pick(3), price: 500 * (i + 1) })) },
    redeemables: [{ object: 'voucher', id: 'PCT-BENCH' }, { object: 'voucher', id: `GIFT-BENCH-${pick(GIFT_CARDS)}`, gift: { credits: 30 } }],
  };
}

const dir = mkdtempSync(join(tmpdir(), 'promo-bench-'));
const server = await spawnListening([bin, 'serve', '--port', '0', '--db', join(dir, 'bench.db')], { ...process.env, ...BENCH_KEY_ENV });
try {
  await seed(server.url);
  const redeem = (durationMs: number) => measurePosts(`${server.url}/v1/redemptions`, { connections: CONNECTIONS, durationMs, headers, body: redemptionBody });
  await redeem(2000); // warm-up
  const alone = await measureThroughput(`${server.url}/health`, { connections: 4, durationMs: 3000 });
  const [redemptions, health, voucher] = await Promise.all([
    redeem(DURATION_MS),
    measureThroughput(`${server.url}/health`, { connections: 4, durationMs: DURATION_MS }),
    measureThroughput(`${server.url}/v1/vouchers/PCT-BENCH`, { connections: 4, durationMs: DURATION_MS, headers }),
  ]);
  console.log(
    JSON.stringify({
      bench: 'redemptions',
      connections: CONNECTIONS,
      redemptions_rps: redemptions.rps,
      redemptions_p50_ms: redemptions.p50_ms,
      redemptions_p99_ms: redemptions.p99_ms,
      redemptions_sent: sequence,
      health_beside_rps: health.rps,
      health_beside_p50_ms: health.p50_ms,
      health_beside_p99_ms: health.p99_ms,
      voucher_get_beside_rps: voucher.rps,
      voucher_get_beside_p50_ms: voucher.p50_ms,
      voucher_get_beside_p99_ms: voucher.p99_ms,
      health_alone_rps: alone.rps,
      health_alone_p99_ms: alone.p99_ms,
      ratio_redemption_p99_to_health_alone_p99: round(redemptions.p99_ms / alone.p99_ms, 2),
    }),
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
