/**
 * Webhooks (issue 30): 1,000 redemptions through the real `promo serve` (POST /v1/redemptions,
 * one percent-off voucher, a customer of 200, an order of 20.00, 16 clients at once) with two
 * webhooks subscribed to redemption.succeeded, each posting to its own receiver on this
 * machine, against the same run on a server with no webhook. The figure is the throughput
 * ratio (with / without); every event must reach both receivers, once each, in commit order
 * (both receivers then see the very same sequence).
 * Rounds alternate (without, with, ...) so that the machine's drift hits both alike; the best
 * round of each counts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_KEY_ENV, benchHeaders as headers, pick, post, PROMO_BIN as bin } from './support/api.js';
import { round } from './support/load.js';
import { spawnListening } from './support/spawn.js';
import { startReceiver } from '../support/webhook-receiver.js';

const REDEMPTIONS = Number(process.env.BENCH_WEBHOOK_REDEMPTIONS ?? 1000);
const CLIENTS = 16;
const ROUNDS = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 2);
const CUSTOMERS = 200;

async function redeemAll(base: string): Promise<number> {
  let next = 0;
  const started = performance.now();
  const client = async () => {
    while (next < REDEMPTIONS) {
      next++;
      const res = await fetch(`${base}/v1/redemptions`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ customer: { source_id: `c-${pick(CUSTOMERS)}` }, order: { amount: 2000 }, redeemables: [{ object: 'voucher', id: 'PCT-HOOKS' }] }),
      });
      if (res.status !== 200) throw new Error(`redemption: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return REDEMPTIONS / ((performance.now() - started) / 1000);
}

async function run(withWebhooks: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'promo-bench-hooks-'));
  const receivers = withWebhooks ? await Promise.all([startReceiver(), startReceiver()]) : [];
  const server = await spawnListening([bin, 'serve', '--port', '0', '--db', join(dir, 'bench.db')], { ...process.env, ...BENCH_KEY_ENV });
  try {
    for (const r of receivers) await post(`${server.url}/management/v1/projects/proj_promo/webhooks`, { target_url: r.url, events: ['redemption.succeeded'] });
    await post(`${server.url}/v1/vouchers/PCT-HOOKS`, { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } });
    for (let i = 0; i < CUSTOMERS; i++) await post(`${server.url}/v1/customers`, { source_id: `c-${i}` });
    const rps = await redeemAll(server.url);
    const drainStart = performance.now();
    const got = await Promise.all(receivers.map((r) => r.waitFor(REDEMPTIONS, 120_000)));
    const drainMs = performance.now() - drainStart;
    // Each webhook gets its events in commit order, so both receivers see the one same sequence.
    const sequences = got.map((list) => list.map((g) => g.json.event.id).join(','));
    const inOrder = sequences.every((seq) => seq === sequences[0]);
    return { rps: round(rps, 1), delivered: got.map((list) => new Set(list.map((g) => g.json.event.id)).size), duplicates: got.map((list) => list.length - new Set(list.map((g) => g.json.event.id)).size), in_order: inOrder, drain_ms_after_last: Math.round(drainMs) };
  } finally {
    await server.stop();
    for (const r of receivers) await r.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const without: Array<Awaited<ReturnType<typeof run>>> = [];
const withHooks: Array<Awaited<ReturnType<typeof run>>> = [];
for (let i = 0; i < ROUNDS; i++) {
  without.push(await run(false));
  withHooks.push(await run(true));
}
const best = (runs: typeof without) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
const everyEvent = withHooks.every((r) => r.delivered.every((n) => n === REDEMPTIONS) && r.in_order);
console.log(
  JSON.stringify({
    bench: 'webhooks',
    redemptions: REDEMPTIONS,
    clients: CLIENTS,
    without_webhooks_rps: without.map((r) => r.rps),
    with_two_webhooks_rps: withHooks.map((r) => r.rps),
    ratio_best: round(best(withHooks).rps / best(without).rps, 3),
    with_two_webhooks: withHooks,
    every_event_delivered_in_order: everyEvent,
  }),
);
if (!everyEvent) process.exitCode = 1;
