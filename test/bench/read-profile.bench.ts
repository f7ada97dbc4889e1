/**
 * Where a read's fixed cost goes (issue 28 point 2): `promo serve` under V8's sampling
 * profiler (--cpu-prof) while 16 keep-alive clients GET one voucher, then one customer (the
 * `hot-paths` bench's requests, one server per read); each profile's samples grouped by the
 * layer of the first frame from the leaf that names one (Node's HTTP, Koa, each middleware of
 * ours, the route, presenting, SQLite, JSON), in µs per request. Logs, metrics, auth and
 * rate limits are on, as in production. BENCH_READ_MS sets each run's duration.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchHeaders, BENCH_KEY_ENV, post, PROMO_BIN } from './support/api.js';
import { cannon } from './support/cannon.js';
import { eachSample, type Frame, type Profile, shares } from './support/cpu-profile.js';
import { type Running, spawnListening } from './support/spawn.js';

const DURATION_MS = Number(process.env.BENCH_READ_MS ?? 5000);
/** µs on CLOCK_MONOTONIC, the profiler's clock in every process of the machine. */
const now = () => Number(process.hrtime.bigint() / 1000n);

function layerOf(f: Frame): string | null {
  const { url, functionName: name } = f;
  if (url === '') {
    if (/^(run|all|get|iterate|raw|prepare|exec|pragma)$/.test(name)) return 'SQLite (native)';
    if (name === 'stringify') return 'JSON.stringify';
    if (name === 'parse') return 'JSON.parse';
    if (name === '(garbage collector)') return 'garbage collection';
    if (name === '(idle)') return '(idle)';
    if (name === '(program)') return 'V8 (program)';
    if (/^(writev|writeBuffer|writeUtf8String|writeLatin1String)$/.test(name)) return 'socket writes';
    return null;
  }
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return `npm: ${url.slice(nm + 14).split('/')[0]}`;
  if (url.startsWith('node:')) {
    if (url.includes('_http_') || url.includes('internal/http')) return 'node: http';
    if (url.includes('net') || url.includes('stream_base')) return 'node: net';
    return `node: ${url.slice(5)}`;
  }
  const at = url.indexOf('/src/');
  if (at >= 0) return url.slice(at + 5).replace(/\.ts$/, '');
  return null;
}

function byLayer(profile: Profile, requests: number, window: [number, number]) {
  const layers = new Map<string, number>();
  const selfTime = new Map<string, number>();
  const add = (m: Map<string, number>, key: string, us: number) => m.set(key, (m.get(key) ?? 0) + us);
  let busy = 0;
  eachSample(profile, (at, us, stack) => {
    if (at < window[0] || at > window[1]) return;
    const leaf = stack[0] as Frame;
    let layer: string | null = null;
    for (const frame of stack) if ((layer = layerOf(frame))) break;
    const key = layer ?? `other: ${leaf.functionName}`;
    if (key === '(idle)') return;
    busy += us;
    add(layers, key, us);
    add(selfTime, `${leaf.functionName || '(anonymous)'} ${leaf.url.replace(/^.*\/(src|node_modules)\//, '')}`, us);
  });
  return {
    busy_us_per_request: Math.round(busy / requests),
    layers: shares(layers, requests, busy, 40),
    self: shares(selfTime, requests, busy, 40),
  };
}

const PROFILE_FLAGS = ['--cpu-prof', '--cpu-prof-interval', '50', '--cpu-prof-dir'];
const bareKoa = fileURLToPath(new URL('./support/bare-koa-server.ts', import.meta.url));

/** 16 clients on `url` for the duration, with a server's profile kept to the measured window. */
async function profiledLoad(server: Running, profiles: string, url: string, headers: Record<string, string>) {
  const window: [number, number] = [0, 0];
  let requests = 0;
  try {
    await cannon(url, { connections: 16, durationMs: 1000, headers });
    window[0] = now();
    requests = (await cannon(url, { connections: 16, durationMs: DURATION_MS, headers })).requests;
    window[1] = now();
  } finally {
    await server.stop();
  }
  const file = readdirSync(profiles)[0] as string;
  const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8')) as Profile;
  rmSync(profiles, { recursive: true, force: true });
  return { requests, ...byLayer(profile, requests, window) };
}

const dir = mkdtempSync(join(tmpdir(), 'promo-bench-'));
const dbFile = join(dir, 'bench.db');
const profiles = join(dir, 'profiles');
const promo = () =>
  spawnListening([...PROFILE_FLAGS, profiles, PROMO_BIN, 'serve', '--port', '0', '--db', dbFile], {
    ...process.env,
    ...BENCH_KEY_ENV,
  });
try {
  const seeding = await spawnListening([PROMO_BIN, 'serve', '--port', '0', '--db', dbFile], {
    ...process.env,
    ...BENCH_KEY_ENV,
  });
  await post(`${seeding.url}/v1/vouchers/PCT-BENCH`, {
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'PERCENT', percent_off: 10 },
    metadata: { tier: 'gold' },
  });
  const customer = await post(`${seeding.url}/v1/customers`, {
    source_id: 'c-bench',
    name: 'Bench Customer',
    email: 'bench@example.com',
    metadata: { tier: 'gold' },
  });
  await seeding.stop();
  let server = await promo();
  const voucher = await profiledLoad(server, profiles, `${server.url}/v1/vouchers/PCT-BENCH`, benchHeaders);
  server = await promo();
  const customerRead = await profiledLoad(server, profiles, `${server.url}/v1/customers/${customer.id}`, benchHeaders);
  server = await spawnListening([...PROFILE_FLAGS, profiles, '--import', 'tsx', bareKoa, dbFile]);
  const bare = await profiledLoad(server, profiles, `${server.url}/v1/vouchers/PCT-BENCH`, {});
  console.log(
    JSON.stringify([
      { read: 'GET /v1/vouchers/{code}', ...voucher },
      { read: 'GET /v1/customers/{id}', ...customerRead },
      { read: 'bare Koa: one cached select of the voucher', ...bare },
    ]),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
