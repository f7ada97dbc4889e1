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
import { startTestServer } from '../support/server.js';
import { eachSample, type Frame, type Profile, shares } from './support/cpu-profile.js';
import { redemptionStackBody, seedThroughApp } from './support/redemption-stack.js';

const N = Number(process.env.BENCH_PROFILE_N ?? 1500);

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
  const layers = new Map<string, number>();
  const stages = new Map<string, number>();
  const statements = new Map<string, number>();
  const selfTime = new Map<string, number>();
  const add = (m: Map<string, number>, key: string, us: number) => m.set(key, (m.get(key) ?? 0) + us);
  const fileOf = (f: Frame) => f.url.slice(f.url.indexOf('/src/') + 5);
  let h = 0;
  let total = 0;
  eachSample(profile, (at, us, stack) => {
    while (h < held.length && (held[h] as [number, number])[1] < at) h++;
    const interval = held[h];
    if (!interval || at < interval[0]) return;
    total += us;
    const leaf = stack[0] as Frame;
    let layer: string | null = null;
    for (const f of stack) if ((layer = layerOf(f))) break;
    add(layers, layer ?? `other: ${leaf.functionName}`, us);
    add(selfTime, `${leaf.functionName || '(anonymous)'} ${fileOf(leaf)}`, us);
    if (layer === 'SQLite (native statements)') {
      const caller = stack.find((f) => f.url.includes('/src/modules/'));
      add(statements, caller ? `${caller.functionName} ${fileOf(caller)}` : '?', us);
    }
    const stage = stack.find((f) => f.url.includes('/src/') && STAGES.includes(f.functionName));
    add(stages, stage?.functionName ?? '(between stages)', us);
  });
  return {
    held_us_per_stack_sampled: Math.round(total / N),
    layers: shares(layers, N, total, 30),
    stages: shares(stages, N, total, 30),
    statements: shares(statements, N, total, 30),
    self: shares(selfTime, N, total, 40),
  };
}

const server = await startTestServer();
try {
  const products = await seedThroughApp(server);
  const redeem = async () => {
    const res = await server.request('POST', '/v1/redemptions', { body: redemptionStackBody(products) });
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
