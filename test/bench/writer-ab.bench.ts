/**
 * The writer's held CPU time per stacked redemption (the `redemptions` bench's request), of
 * this tree and of another checkout (BENCH_BEFORE_TREE, e.g. the branch's start exported beside
 * it with node_modules linked), in ONE process: both apps run side by side on their own files
 * and take turns, BENCH_AB_BATCH redemptions at a time, so a loaded machine slows both alike.
 * Held time runs from a transaction's savepoint to its release; its CPU is getrusage's, summed
 * over those intervals (only the main thread works then: one client, nothing else in flight).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestServer } from '../support/server.js';
import { redemptionStackBody, seedThroughApp } from './support/redemption-stack.js';

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 12);
const BATCH = Number(process.env.BENCH_AB_BATCH ?? 100);
const here = resolve(import.meta.dirname, '../..');
const before = process.env.BENCH_BEFORE_TREE;

interface Side {
  name: string;
  server: TestServer;
  products: string[];
  heldCpuUs: number;
  heldWallUs: number;
  stacks: number;
}

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** Sums the held CPU and wall time of the tree's group commits into `side`. */
async function instrument(tree: string, side: Side) {
  const { GroupCommit } = await import(pathToFileURL(`${tree}/src/db/sqlite/group-commit.ts`).href);
  const proto = GroupCommit.prototype as Record<string, (...args: unknown[]) => unknown>;
  const begin = proto.begin as (...args: unknown[]) => unknown;
  const end = proto.end as (...args: unknown[]) => unknown;
  let cpuSince = 0;
  let wallSince = 0;
  proto.begin = function (this: { depth: number }, ...args: unknown[]) {
    if (this.depth === 0) {
      cpuSince = cpuNow();
      wallSince = performance.now();
    }
    return begin.apply(this, args);
  };
  proto.end = function (this: { depth: number }, ...args: unknown[]) {
    const outer = this.depth === 1;
    const result = end.apply(this, args);
    if (outer) {
      side.heldCpuUs += cpuNow() - cpuSince;
      side.heldWallUs += (performance.now() - wallSince) * 1000;
    }
    return result;
  };
}

async function redeem(side: Side, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    const res = await side.server.request('POST', '/v1/redemptions', { body: redemptionStackBody(side.products) });
    if (res.status !== 200) throw new Error(`${side.name}: POST /v1/redemptions: ${res.status} ${res.text}`);
  }
}

async function sideOf(name: string, tree: string): Promise<Side> {
  const { startTestServer } = await import(pathToFileURL(`${tree}/test/support/server.ts`).href);
  const side: Side = { name, server: await startTestServer(), products: [], heldCpuUs: 0, heldWallUs: 0, stacks: 0 };
  side.products = await seedThroughApp(side.server);
  await redeem(side, 300); // warm-up: JIT, templates, caches
  await instrument(tree, side);
  return side;
}

async function compare(beforeTree: string): Promise<void> {
  const sides = [await sideOf('before', beforeTree), await sideOf('after', here)];
  try {
    console.log(JSON.stringify({ bench: 'writer-ab', ...(await takeTurns(sides)) }));
  } finally {
    for (const side of sides) await side.server.close();
  }
}

async function takeTurns(sides: Side[]) {
  for (let round = 0; round < ROUNDS; round++)
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      await redeem(side, BATCH);
      side.stacks += BATCH;
    }
  const figures = sides.map((s) => ({
    tree: s.name,
    stacks: s.stacks,
    held_cpu_us_per_stack: Math.round(s.heldCpuUs / s.stacks),
    held_wall_us_per_stack: Math.round(s.heldWallUs / s.stacks),
  }));
  const [b, a] = figures as [(typeof figures)[0], (typeof figures)[0]];
  return {
    sides: figures,
    ratio_held_cpu: Math.round((a.held_cpu_us_per_stack / b.held_cpu_us_per_stack) * 1000) / 1000,
    ratio_held_wall: Math.round((a.held_wall_us_per_stack / b.held_wall_us_per_stack) * 1000) / 1000,
  };
}

// `npm run bench` runs every bench: without a tree to compare with, this one says so and passes.
if (before) await compare(before);
else
  console.log(
    JSON.stringify({ bench: 'writer-ab', skipped: 'BENCH_BEFORE_TREE (the checkout to compare with) is not set' }),
  );
