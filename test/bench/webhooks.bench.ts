/**
 * Webhooks (issue 30): 1,000 redemptions through the real `promo serve` (POST /v1/redemptions,
 * one percent-off voucher, a customer of 200, an order of 20.00, 16 clients at once) on a
 * server with two webhooks subscribed to redemption.succeeded, each posting to its own receiver
 * on this machine, against 1,000 on a server with no webhook. The figure is the throughput ratio
 * (with / without); every event must reach both receivers once, in commit order (each webhook's
 * events leave in commit order, so both receivers see the very same sequence).
 *
 * The machine is shared, and its load swings several-fold within a minute: the two servers run
 * side by side and take turns, 100 redemptions at a time (who goes first alternates), so that
 * both meet the same load; a slice's time is its redemptions' alone. After each slice of the
 * server with webhooks, the next waits (untimed) until its receivers have every event so far:
 * its deliveries run during its own slices, not the other server's. Beside the throughput, each
 * server's CPU per redemption (its sending included), which the machine's load barely moves.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_KEY_ENV, benchHeaders as headers, pick, post, PROMO_BIN as bin } from './support/api.js';
import { round } from './support/load.js';
import { spawnListening, type Running } from './support/spawn.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const REDEMPTIONS = Number(process.env.BENCH_WEBHOOK_REDEMPTIONS ?? 1000);
const SLICE = 100;
const CLIENTS = 16;
const CUSTOMERS = 200;

/**
 * The CPU a server process has used so far, in ms (Linux: /proc/PID/stat utime + stime, in
 * clock ticks of 10 ms). Unlike throughput, it barely moves with the machine's load: the
 * figure that shows what webhooks cost when the wall-clock figures swing.
 */
function cpuMs(server: Running): number {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `count` redemptions from CLIENTS clients; the seconds they took. */
async function redeem(base: string, count: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const client = async () => {
    while (next < count) {
      next++;
      const res = await fetch(`${base}/v1/redemptions`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          customer: { source_id: `c-${pick(CUSTOMERS)}` },
          order: { amount: 2000 },
          redeemables: [{ object: 'voucher', id: 'PCT-HOOKS' }],
        }),
      });
      if (res.status !== 200) throw new Error(`redemption: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return (performance.now() - started) / 1000;
}

async function startServer(dir: string, name: string, receivers: Receiver[]): Promise<Running> {
  const server = await spawnListening([bin, 'serve', '--port', '0', '--db', join(dir, `${name}.db`)], {
    ...process.env,
    ...BENCH_KEY_ENV,
  });
  for (const r of receivers)
    await post(`${server.url}/management/v1/projects/proj_promo/webhooks`, {
      target_url: r.url,
      events: ['redemption.succeeded'],
    });
  await post(`${server.url}/v1/vouchers/PCT-HOOKS`, {
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'PERCENT', percent_off: 10 },
  });
  for (let i = 0; i < CUSTOMERS; i++) await post(`${server.url}/v1/customers`, { source_id: `c-${i}` });
  await redeem(server.url, 50); // warm-up
  return server;
}

const dir = mkdtempSync(join(tmpdir(), 'promo-bench-hooks-'));
const receivers = await Promise.all([startReceiver(), startReceiver()]);
const plain = await startServer(dir, 'plain', []);
const hooked = await startServer(dir, 'hooked', receivers);
try {
  await Promise.all(receivers.map((r) => r.waitFor(50, 60_000)));
  const seconds = { plain: 0, hooked: 0 };
  const cpuBefore = { plain: cpuMs(plain), hooked: cpuMs(hooked) };
  let done = 0;
  const slices: Array<[number, number]> = [];
  for (let i = 0; done < REDEMPTIONS; i++) {
    const count = Math.min(SLICE, REDEMPTIONS - done);
    const runPlain = async () => redeem(plain.url, count);
    const runHooked = async () => {
      const s = await redeem(hooked.url, count);
      await Promise.all(receivers.map((r) => r.waitFor(50 + done + count, 120_000)));
      return s;
    };
    const slice = { plain: 0, hooked: 0 };
    for (const which of i % 2 === 0 ? (['plain', 'hooked'] as const) : (['hooked', 'plain'] as const))
      slice[which] = which === 'plain' ? await runPlain() : await runHooked();
    const pair: [number, number] = [slice.plain, slice.hooked];
    seconds.plain += pair[0];
    seconds.hooked += pair[1];
    slices.push([round(count / pair[0], 1), round(count / pair[1], 1)]);
    done += count;
  }
  const cpuPer = (which: 'plain' | 'hooked') =>
    round((cpuMs(which === 'plain' ? plain : hooked) - cpuBefore[which]) / REDEMPTIONS, 2);
  const cpu = { plain: cpuPer('plain'), hooked: cpuPer('hooked') };
  const got = receivers.map((r) => r.received.slice(50));
  const sequences = got.map((list) => list.map((g) => g.json.event.id).join(','));
  const delivered = got.map((list) => new Set(list.map((g) => g.json.event.id)).size);
  const everyEvent =
    delivered.every((n) => n === REDEMPTIONS) &&
    got.every((list) => list.length === REDEMPTIONS) &&
    sequences[0] === sequences[1];
  console.log(
    JSON.stringify({
      bench: 'webhooks',
      redemptions: REDEMPTIONS,
      clients: CLIENTS,
      without_webhooks_rps: round(REDEMPTIONS / seconds.plain, 1),
      with_two_webhooks_rps: round(REDEMPTIONS / seconds.hooked, 1),
      ratio: round(seconds.plain / seconds.hooked, 3),
      // Server CPU per redemption, its sending included: without / with is the cost in CPU.
      server_cpu_ms_per_redemption_without_with: [cpu.plain, cpu.hooked],
      cpu_ratio: round(cpu.plain / cpu.hooked, 3),
      slices_rps_without_with: slices,
      delivered_per_receiver: delivered,
      every_event_delivered_once_in_commit_order: everyEvent,
    }),
  );
  if (!everyEvent) process.exitCode = 1;
} finally {
  await plain.stop();
  await hooked.stop();
  for (const r of receivers) await r.close();
  rmSync(dir, { recursive: true, force: true });
}
