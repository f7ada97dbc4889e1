/**
 * Redemptions (issues 12 and 13): POST /v1/redemptions through the real `promo serve`, each a
 * stack of one percent-off voucher (with a validation rule whose applicable_to is a product
 * collection: two of the three catalog products) and one gift card (30 credits), on a new
 * 3-item order of one of 500 customers; from 1 client, then from 32 keep-alive clients while
 * GET /health and GET /v1/vouchers/{code} (2 clients each) measure what the writes do to
 * everything else. Baselines in the same run: GET /health alone, and a loop of tiny
 * synchronous = FULL commits on the same disk. The mean commit batch comes from /metrics.
 *
 * A request upserts the customer, stores the order and its items, loads and checks both
 * redeemables (the rule reads the items' collections), computes the stack, claims the
 * voucher's counter, debits the gift card through its ledger, writes the parent and two child
 * redemptions, the order's discounts and redemptions map, the summary and the events.
 *
 * The writer's time per redemption (/metrics: held by its transaction, and its share of COMMIT)
 * bounds the rate: SQLite has one writer, so no design can redeem faster than 1e6 / (held +
 * commit) a second, whatever runs beside it. Both are wall-clock; the server's CPU time per
 * request during the storm is the figure that survives a loaded machine. Under `serve` the
 * redemptions run on the writer thread (root/writer-thread.ts): the writer's time is then that
 * thread's, and the main thread's HTTP, checks and reads overlap it on the other core.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchHeaders as headers, BENCH_KEY_ENV, post, PROMO_BIN } from './support/api.js';
import { redemptionStackBody, seedRedemptionStack } from './support/redemption-stack.js';
import { commitFigures, meanBatch, tinyCommitRate, writerTime } from './support/commits.js';
import { cpuSeconds } from './support/cpu.js';
import { measurePosts, measureThroughput, round } from './support/load.js';
import { spawnListening } from './support/spawn.js';

const DURATION_MS = Number(process.env.BENCH_REDEMPTIONS_MS ?? 8000);
/** Another checkout's binary (the figures before a change, measured the same way). */
const bin = process.env.BENCH_PROMO_BIN ?? PROMO_BIN;

/**
 * The server's CPU time per request answered during the storm (redemptions and the reads beside
 * them): unlike the writer's time, which is wall-clock and grows when neighbours take the CPU
 * away mid-transaction, CPU time compares two builds measured under different loads.
 */
const serverCpuPerRequest = (before: number | null, after: number | null, requests: number): number | null =>
  before === null || after === null ? null : round(((after - before) * 1e6) / requests, 0);

let sequence = 0;
const redemptionBody = (products: string[]) => () => {
  sequence++;
  return redemptionStackBody(products);
};

const dir = mkdtempSync(join(tmpdir(), 'promo-bench-'));
const tinyBefore = tinyCommitRate(dir, 2000);
const server = await spawnListening([bin, 'serve', '--port', '0', '--db', join(dir, 'bench.db')], {
  ...process.env,
  ...BENCH_KEY_ENV,
});
try {
  const body = redemptionBody(await seedRedemptionStack((path, data) => post(`${server.url}${path}`, data)));
  const redeem = (connections: number, durationMs: number) =>
    measurePosts(`${server.url}/v1/redemptions`, { connections, durationMs, headers, body });
  await redeem(32, 2000); // warm-up
  const alone = await measureThroughput(`${server.url}/health`, { connections: 4, durationMs: 3000 });
  const one = await redeem(1, DURATION_MS / 2);
  const before = await commitFigures(server.url);
  const cpuBefore = cpuSeconds(server.child.pid);
  const [storm, health, voucher] = await Promise.all([
    redeem(32, DURATION_MS),
    measureThroughput(`${server.url}/health`, { connections: 2, durationMs: DURATION_MS }),
    measureThroughput(`${server.url}/v1/vouchers/PCT-BENCH`, { connections: 2, durationMs: DURATION_MS, headers }),
  ]);
  const after = await commitFigures(server.url);
  const cpuAfter = cpuSeconds(server.child.pid);
  const tinyAfter = tinyCommitRate(dir, 2000);
  console.log(
    JSON.stringify({
      bench: 'redemptions',
      redemptions_1_client: one,
      redemptions_32_clients: storm,
      ratio_32_to_1: round(storm.rps / one.rps, 2),
      mean_commit_batch_32_clients: meanBatch(before, after),
      writer_per_redemption_32_clients: writerTime(before, after),
      server_cpu_us_per_request_32_clients: serverCpuPerRequest(
        cpuBefore,
        cpuAfter,
        storm.requests + health.requests + voucher.requests,
      ),
      health_beside: health,
      voucher_get_beside: voucher,
      health_alone: alone,
      tiny_full_commits_per_s: { before: tinyBefore, after: tinyAfter },
      redemptions_sent: sequence,
    }),
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
