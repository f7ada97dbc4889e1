/**
 * One qualification (POST /v1/qualifications) for a customer holding 1,000 vouchers, with 50
 * promotion tiers available (ten campaigns of five), through the real app in-process (one request at a time):
 *   - `all_default`: scenario ALL, the default page (5): the walk stops after one chunk;
 *   - `all_best_50`: ALL, limit 50, BEST_DEAL;
 *   - `wallet_none`: CUSTOMER_WALLET with a filter no voucher passes: every voucher up to the
 *     scan cap (MAX_SCANNED, 1,000) is validated alone: the worst case;
 * each next to GET /v1/vouchers/{code} through the same stack, measured in the same run.
 */
import assert from 'node:assert/strict';
import { testRunner, waitForJob } from '../support/jobs.js';
import { startTestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const WALLET = 1000;
const TIERS = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const server = await startTestServer();
const ok = async (method: string, path: string, body?: unknown) => {
  const res = await server.request(method, path, body === undefined ? {} : { body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.text}`);
  return res.body;
};

async function seed(): Promise<void> {
  const customer = await ok('POST', '/v1/customers', { source_id: 'bench-ann' });
  const campaign = await ok('POST', '/v1/campaigns', {
    name: 'Bench coupons',
    campaign_type: 'DISCOUNT_COUPONS',
    vouchers_count: WALLET,
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
  });
  const jobs = await ok('GET', '/v1/async-actions?limit=1');
  const runner = testRunner(server.deps);
  await waitForJob(server, jobs.async_actions[0].id, 120_000);
  await runner.stop();
  // Seeding shortcut: every voucher of the campaign held by the customer, as publications leave them.
  sqliteOf(server.deps)
    .prepare('UPDATE vouchers SET holder_id = ? WHERE campaign_id = ?')
    .run(customer.id, campaign.id);
  // Ten promotions of five tiers (a campaign's tiers share their created_at: a run the pages keep whole).
  for (let c = 0; c < TIERS / 5; c++) {
    const tiers = Array.from({ length: 5 }, (_, i) => ({
      name: `Tier ${c}.${i}`,
      action: { discount: { type: 'AMOUNT', amount_off: 10 + 5 * c + i } },
    }));
    await ok('POST', '/v1/campaigns', { name: `Bench promo ${c}`, campaign_type: 'PROMOTION', promotion: { tiers } });
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function timed(call: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) =>
    Math.round((times[Math.min(times.length - 1, Math.floor(p * times.length))] as number) * 100) / 100;
  return { p50: at(0.5), p99: at(0.99) };
}

await seed();
const order = { amount: 100000 };
const qualify = (body: Record<string, unknown>, expected: number) => async () => {
  const answer = await ok('POST', '/v1/qualifications', { customer: { source_id: 'bench-ann' }, order, ...body });
  assert.equal(answer.redeemables.data.length, expected);
};
const code = (sqliteOf(server.deps).prepare('SELECT code FROM vouchers LIMIT 1').get() as { code: string }).code;
const baseline = await timed(() => ok('GET', `/v1/vouchers/${code}`));
const figures = {
  all_default: await timed(qualify({}, 5)),
  all_best_50: await timed(qualify({ options: { limit: 50, sorting_rule: 'BEST_DEAL' } }, 50)),
  wallet_none: await timed(
    qualify({ scenario: 'CUSTOMER_WALLET', options: { filters: { code: { conditions: { $is: ['NONE'] } } } } }, 0),
  ),
};
console.log(
  JSON.stringify({
    bench: 'qualifications',
    wallet: WALLET,
    tiers: TIERS,
    runs: RUNS,
    ms: figures,
    baseline_get_voucher_ms: baseline,
  }),
);
await server.close();
