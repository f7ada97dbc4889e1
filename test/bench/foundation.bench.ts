/**
 * Foundation: `promo --help` start-up time, and GET /health throughput of the real
 * `promo serve` against a bare Koa app measured in the same run (targets: --help < 0.4 s;
 * /health >= 0.7x bare Koa).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureThroughput, round } from './support/load.js';
import { spawnListening } from './support/spawn.js';

const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));
const bareKoa = fileURLToPath(new URL('./support/bare-koa-server.ts', import.meta.url));

function helpSeconds(runs = 10): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = spawnSync(process.execPath, [bin, '--help']);
    if (res.status !== 0) throw new Error('promo --help failed');
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return round(times[Math.floor(runs / 2)] as number);
}

async function healthRps(args: string[], env?: NodeJS.ProcessEnv) {
  const server = await spawnListening(args, env);
  try {
    await measureThroughput(`${server.url}/health`, { durationMs: 1000 }); // warm-up
    return await measureThroughput(`${server.url}/health`, { durationMs: 4000 });
  } finally {
    await server.stop();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'promo-bench-'));
try {
  const help = helpSeconds();
  const bare = await healthRps(['--import', 'tsx', bareKoa]);
  const promo = await healthRps([bin, 'serve', '--port', '0', '--db', join(dir, 'bench.db')], {
    ...process.env,
    PROMO_APP_ID: 'bench',
    PROMO_APP_TOKEN: 'bench',
  });
  console.log(
    JSON.stringify({
      bench: 'foundation',
      help_seconds: help,
      help_target_seconds: 0.4,
      health_rps: promo.rps,
      bare_koa_rps: bare.rps,
      ratio: round(promo.rps / bare.rps, 2),
      ratio_target: 0.7,
      health_p99_ms: promo.p99_ms,
      bare_koa_p99_ms: bare.p99_ms,
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
