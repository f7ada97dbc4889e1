/**
 * The per-request cost of reading a body (issue 26 point 5: koa-bodyparser instead of promo's
 * own reader), through the real `promo serve`, 16 keep-alive connections (autocannon):
 * GET /health (no body: the yardstick), GET /v1/vouchers/{code} (a key, no body: what the
 * two steps of authentication cost a read), POST /v1/oauth/introspect with a small JSON body (the
 * body's reading and parsing is most of what it does: one token lookup in memory) and
 * POST /client/v1/validations (a percent-off voucher on a 3-item order). Each figure with the
 * server's CPU time per request (from /proc, Linux only).
 *
 * BENCH_BEFORE_BIN names another checkout's binary: the two are then measured alternately in
 * the same run, before and after twice, so both see the same machine. BENCH_BODY_MS sets each
 * measurement's duration.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_KEY_ENV, benchHeaders, post, PROMO_BIN } from './support/api.js';
import { cannon } from './support/cannon.js';
import { measured } from './support/cpu.js';
import { spawnListening } from './support/spawn.js';

const CONNECTIONS = 16;
const DURATION_MS = Number(process.env.BENCH_BODY_MS ?? 5000);
const CLIENT_ENV = {
  PROMO_CLIENT_APP_ID: 'bench-client',
  PROMO_CLIENT_TOKEN: 'bench-client',
  PROMO_CLIENT_ORIGINS: '*',
};
const clientHeaders = {
  'X-Client-Application-Id': 'bench-client',
  'X-Client-Token': 'bench-client',
  Origin: 'https://shop.example',
};
const validationBody = {
  redeemables: [{ object: 'voucher', id: 'PCT-BENCH' }],
  order: { items: [1, 2, 3].map((i) => ({ product_id: null, quantity: i, price: 500 * i })) },
};

async function figures(bin: string) {
  const dir = mkdtempSync(join(tmpdir(), 'promo-bench-'));
  const server = await spawnListening([bin, 'serve', '--port', '0', '--db', join(dir, 'bench.db')], {
    ...process.env,
    ...BENCH_KEY_ENV,
    ...CLIENT_ENV,
  });
  try {
    await post(`${server.url}/v1/vouchers/PCT-BENCH`, {
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'PERCENT', percent_off: 10 },
    });
    const load = (
      path: string,
      options: { method?: 'POST'; headers?: Record<string, string>; body?: unknown },
      durationMs = DURATION_MS,
    ) => cannon(`${server.url}${path}`, { connections: CONNECTIONS, durationMs, ...options });
    const health = () => load('/health', {});
    const voucher = () => load('/v1/vouchers/PCT-BENCH', { headers: benchHeaders });
    const introspect = (ms?: number) =>
      load(
        '/v1/oauth/introspect',
        { method: 'POST', headers: benchHeaders, body: { access_token: 'not-a-live-token' } },
        ms,
      );
    const validate = (ms?: number) =>
      load('/client/v1/validations', { method: 'POST', headers: clientHeaders, body: validationBody }, ms);
    await introspect(1000);
    await validate(1000);
    const pid = server.child.pid;
    return {
      health: await measured(pid, health),
      voucher_get: await measured(pid, voucher),
      introspect_post: await measured(pid, () => introspect()),
      validation_post: await measured(pid, () => validate()),
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const before = process.env.BENCH_BEFORE_BIN;
const runs: Array<[string, string]> = before
  ? [
      ['before', before],
      ['after', PROMO_BIN],
      ['before', before],
      ['after', PROMO_BIN],
    ]
  : [['this', PROMO_BIN]];
for (const [label, bin] of runs) {
  console.log(
    JSON.stringify({
      bench: 'body-cost',
      label,
      connections: CONNECTIONS,
      duration_ms: DURATION_MS,
      ...(await figures(bin)),
    }),
  );
}
