/**
 * Named statements on PostgreSQL, off against on (db/postgres/named-statements.ts): one
 * `promo serve` at a time on one database, `PROMO_DB_NAMED_STATEMENTS=off` (every statement
 * parsed and planned on each run, as before) and on, alternating BENCH_ROUNDS (3) times; each
 * run 2 keep-alive clients GET a voucher and then a customer for BENCH_READ_MS (6 s) after a 2 s
 * warm-up. Figures: the server's and PostgreSQL's backends' CPU microseconds per GET (/proc),
 * which a loaded machine moves much less than the rate. Redemptions: `redemptions-engines` with
 * the same variable. The cluster: PROMO_TEST_DB, else a scratch one.
 */
import { loadavg } from 'node:os';
import { BENCH_KEY_ENV, benchHeaders as headers, PROMO_BIN as bin, post } from './support/api.js';
import { childrenCpuSeconds, cpuSeconds, postmasterOf } from './support/cpu.js';
import { measureThroughput, round } from './support/load.js';
import { benchCluster, queryOnce } from './support/postgres-cluster.js';
import { spawnListening } from './support/spawn.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const READ_MS = Number(process.env.BENCH_READ_MS ?? 6000);
const PATHS = ['/v1/vouchers/NAMED-1', '/v1/customers/named-1'];

type Mode = 'off' | 'on';

/** One GET path's figures in one run. */
async function readRun(url: string, path: string, serverPid: number | undefined, postmaster: number) {
  const target = [`${url}${path}`];
  await measureThroughput(target, { connections: 2, durationMs: 2000, headers }); // warm-up
  const promo0 = cpuSeconds(serverPid) ?? 0;
  const postgres0 = childrenCpuSeconds(postmaster);
  const result = await measureThroughput(target, { connections: 2, durationMs: READ_MS, headers });
  const perGet = (seconds: number) => Math.round((seconds * 1e6) / result.requests);
  return {
    rps: result.rps,
    p99_ms: result.p99_ms,
    promo_cpu_us: perGet((cpuSeconds(serverPid) ?? 0) - promo0),
    postgres_cpu_us: perGet(childrenCpuSeconds(postmaster) - postgres0),
  };
}

const cluster = await benchCluster();
try {
  const url = await cluster.migratedDatabase();
  // The checkpointer lives as long as the cluster: its parent is the postmaster.
  const [checkpointer] = await queryOnce<{ pid: number }>(
    url,
    "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'",
  );
  const postmaster = postmasterOf(checkpointer?.pid as number) as number;
  const runs: Array<{ mode: Mode; load: number; reads: Record<string, Awaited<ReturnType<typeof readRun>>> }> = [];
  for (let r = 0; r < ROUNDS; r++)
    for (const mode of ['off', 'on'] as const) {
      const env = { ...process.env, ...BENCH_KEY_ENV, PROMO_DB_NAMED_STATEMENTS: mode };
      const server = await spawnListening([bin, 'serve', '--port', '0', '--db', url], env);
      try {
        if (runs.length === 0) {
          await post(`${server.url}/v1/vouchers/NAMED-1`, {
            type: 'DISCOUNT_VOUCHER',
            discount: { type: 'PERCENT', percent_off: 10 },
          });
          await post(`${server.url}/v1/customers`, { source_id: 'named-1', name: 'Named One' });
        }
        const reads: Record<string, Awaited<ReturnType<typeof readRun>>> = {};
        for (const path of PATHS) reads[path] = await readRun(server.url, path, server.child.pid, postmaster);
        runs.push({ mode, load: round(loadavg()[0] ?? 0, 2), reads });
      } finally {
        await server.stop();
      }
    }
  console.log(JSON.stringify({ bench: 'postgres-named-statements', read_ms: READ_MS, runs }));
} finally {
  await cluster.close();
}
