/**
 * Where the one writer's held time goes (issue 28): the `redemptions` bench's request (a
 * percent-off voucher whose rule reads a product collection, and a gift card for 30 credits, on
 * a new 3-item order of one of 500 customers) redeemed one at a time against the real app in
 * this process, with V8's sampling profiler on. Only the samples taken while a transaction held
 * the writer (from its savepoint to its release: what /metrics' promo_transaction_seconds_total
 * sums) are kept, and attributed to groups of functions by the frames on their stacks.
 *
 * One client, so nothing else runs while a transaction holds the writer (its statements are
 * synchronous and it awaits nothing else) and the held wall-clock time is the main thread's
 * CPU time. BENCH_PROFILE_N sets the number of profiled redemptions; BENCH_PROFILE_OUT writes
 * the whole .cpuprofile there (for Chrome's DevTools).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { GroupCommit } from '../../src/db/sqlite/group-commit.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { pick } from './support/api.js';

const N = Number(process.env.BENCH_PROFILE_N ?? 1500);
const CUSTOMERS = 500;
const GIFT_CARDS = 100;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

async function seed(server: TestServer): Promise<string[]> {
  const post = async (path: string, body: unknown) => {
    const res = await server.request('POST', path, { body });
    if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const products: string[] = [];
  for (const [i, price] of [500, 1000, 1500].entries())
    products.push((await post('/v1/products', { source_id: `bench-p${i}`, name: `Product ${i}`, price })).id);
  const collection = await post('/v1/product-collections', {
    type: 'STATIC',
    name: 'Bench picks',
    products: products.slice(0, 2).map((id) => ({ id, object: 'product' })),
  });
  const rule = await post('/v1/validation-rules', {
    name: 'Bench picks only',
    rules: { '1': { name: 'order.amount', conditions: { $more_than: [0] } }, logic: '1' },
    applicable_to: {
      included: [{ object: 'products_collection', id: collection.id }],
      excluded: [],
      included_all: false,
    },
  });
  await post('/v1/vouchers/PCT-BENCH', {
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'PERCENT', percent_off: 10, effect: 'APPLY_TO_ITEMS' },
    validation_rules: [rule.id],
  });
  for (let i = 0; i < GIFT_CARDS; i++)
    await post(`/v1/vouchers/GIFT-BENCH-${i}`, { type: 'GIFT_VOUCHER', gift: { amount: 100_000_000 } });
  for (let i = 0; i < CUSTOMERS; i++) await post('/v1/customers', { source_id: `c-${i}`, name: `Customer ${i}` });
  return products;
}

const body = (products: string[]) => ({
  customer: { source_id: `c-${pick(CUSTOMERS)}` },
  order: { items: products.map((id, i) => ({ product_id: id, quantity: 1 + pick(3), price: 500 * (i + 1) })) },
  redeemables: [
    { object: 'voucher', id: 'PCT-BENCH' },
    { object: 'voucher', id: `GIFT-BENCH-${pick(GIFT_CARDS)}`, gift: { credits: 30 } },
  ],
});

/**
 * The held intervals (µs on the profiler's clock, CLOCK_MONOTONIC) of every transaction from
 * now on, and the process's CPU time inside them (getrusage: every thread, but only the main
 * thread works while a transaction holds the writer).
 */
function recordHeld() {
  const held: Array<[number, number]> = [];
  const cpu = { us: 0 };
  const now = () => Number(process.hrtime.bigint() / 1000n);
  const cpuNow = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const proto = GroupCommit.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const begin = proto.begin as (...args: unknown[]) => unknown;
  const end = proto.end as (...args: unknown[]) => unknown;
  let since = 0;
  let cpuSince = 0;
  proto.begin = function (this: { depth: number }, ...args: unknown[]) {
    const outer = this.depth === 0;
    if (outer) cpuSince = cpuNow();
    const result = begin.apply(this, args);
    if (outer) since = now();
    return result;
  };
  proto.end = function (this: { depth: number }, ...args: unknown[]) {
    const outer = this.depth === 1;
    const result = end.apply(this, args);
    if (outer) {
      held.push([since, now()]);
      cpu.us += cpuNow() - cpuSince;
    }
    return result;
  };
  return { held, cpu };
}

type Frame = ProfileNode['callFrame'];

/** The layer a sample's time goes to: the first frame from its leaf that names one. */
function layerOf(f: Frame): string | null {
  if (f.url === '') {
    if (/^(run|all|get|iterate|raw|prepare|exec)$/.test(f.functionName)) return 'SQLite (native statements)';
    if (f.functionName === 'stringify') return 'JSON.stringify';
    if (f.functionName === 'parse') return 'JSON.parse';
    if (f.functionName === '(garbage collector)') return 'garbage collection';
    if (f.functionName === '(program)') return 'V8 (program)';
    return null;
  }
  if (f.url.includes('/kysely/')) return 'Kysely';
  if (f.url.includes('better-sqlite3')) return 'better-sqlite3 JS';
  const at = f.url.indexOf('/src/');
  if (at < 0) return null;
  const file = f.url.slice(at + 5).replace(/\.ts$/, '');
  if (file.startsWith('db/')) return 'db layer: query templates, binding, raw rows, driver';
  if (file.startsWith('engine/')) return 'discount engine (src/engine)';
  return file;
}

/** Stages: the innermost of these functions on a sample's stack takes it. */
const STAGES = [
  'redeemIn',
  'planBasisOf',
  'writeRedemption',
  'announce',
  'eventOf',
  'releaseExpiredLocks',
  'consumeSession',
  'customerOf',
  'upsertOrder',
  'planStack',
  'spend',
  'calculatedOrder',
  'childRow',
  'parentRow',
  'insertRedemptions',
  'writeOrder',
  'presentWrittenRedemption',
  'recordRedemptionInSummary',
  'emitMany',
  'fire',
  'answer',
];

function attribute(profile: Profile, held: Array<[number, number]>) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const layers = new Map<string, number>();
  const stages = new Map<string, number>();
  const statements = new Map<string, number>();
  const selfTime = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  let t = profile.startTime;
  let h = 0;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i + 1] ?? 0; // the time until the next sample is this one's
    t += profile.timeDeltas[i] ?? 0;
    while (h < held.length && (held[h] as [number, number])[1] < t) h++;
    const interval = held[h];
    if (!interval || t < interval[0]) continue;
    total += delta;
    const stack: Frame[] = [];
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id))
      stack.push((byId.get(id) as ProfileNode).callFrame);
    let layer: string | null = null;
    for (const f of stack) if ((layer = layerOf(f))) break;
    add(layers, layer ?? `other: ${(stack[0] as Frame).functionName}`, delta);
    const leaf = stack[0] as Frame;
    add(selfTime, `${leaf.functionName || '(anonymous)'} ${leaf.url.slice(leaf.url.indexOf('/src/') + 5)}`, delta);
    if (layer === 'SQLite (native statements)') {
      const caller = stack.find((f) => f.url.includes('/src/modules/'));
      add(
        statements,
        caller ? `${caller.functionName} ${caller.url.slice(caller.url.indexOf('/src/') + 5)}` : '?',
        delta,
      );
    }
    const stage = stack.find((f) => f.url.includes('/src/') && STAGES.includes(f.functionName));
    add(stages, stage?.functionName ?? '(between stages)', delta);
  }
  const table = (m: Map<string, number>, top: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => [k, Math.round((v / N) * 10) / 10, Math.round((v / total) * 1000) / 10]);
  return {
    held_us_per_stack_sampled: Math.round(total / N),
    layers: table(layers, 30),
    stages: table(stages, 30),
    statements: table(statements, 30),
    self: table(selfTime, 40),
  };
}

const server = await startTestServer();
try {
  const products = await seed(server);
  const redeem = async () => {
    const res = await server.request('POST', '/v1/redemptions', { body: body(products) });
    if (res.status !== 200) throw new Error(`POST /v1/redemptions: ${res.status} ${res.text}`);
  };
  for (let i = 0; i < 500; i++) await redeem(); // warm-up: JIT, templates, caches
  const { held, cpu: heldCpu } = recordHeld();
  const cpuPlain = process.cpuUsage();
  for (let i = 0; i < N; i++) await redeem();
  const plainCpu = process.cpuUsage(cpuPlain);
  const plainHeldUs = held.splice(0).reduce((sum, [a, b]) => sum + (b - a), 0);
  const plainHeldCpu = heldCpu.us;
  heldCpu.us = 0;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 25 });
  const cpu0 = process.cpuUsage();
  await session.post('Profiler.start');
  for (let i = 0; i < N; i++) await redeem();
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
  const cpu = process.cpuUsage(cpu0);
  if (process.env.BENCH_PROFILE_OUT) writeFileSync(process.env.BENCH_PROFILE_OUT, JSON.stringify(profile));
  const heldUs = held.reduce((sum, [a, b]) => sum + (b - a), 0);
  console.log(
    JSON.stringify(
      {
        bench: 'writer-profile',
        redemptions: N,
        transactions: held.length,
        unprofiled: {
          held_us_per_stack: Math.round(plainHeldUs / N),
          held_cpu_us_per_stack: Math.round(plainHeldCpu / N),
          process_cpu_us_per_stack: Math.round((plainCpu.user + plainCpu.system) / N),
        },
        held_us_per_stack: Math.round(heldUs / N),
        held_cpu_us_per_stack: Math.round(heldCpu.us / N),
        process_cpu_us_per_stack: Math.round((cpu.user + cpu.system) / N),
        ...attribute(profile, held),
      },
      null,
      0,
    ),
  );
} finally {
  await server.close();
}
