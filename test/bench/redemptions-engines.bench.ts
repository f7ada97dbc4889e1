/**
 * Stacked redemptions on both engines in one run (issue 29, Benchmarks): the `redemptions`
 * bench's request (test/bench/support/redemption-stack.ts: a percent-off voucher with a
 * collection rule and a gift card, on a new 3-item order) from BENCH_CLIENTS (32) keep-alive
 * clients for BENCH_REDEMPTIONS_MS (8 s) after a 2 s warm-up, while 2 more clients GET
 * /v1/vouchers/PCT-BENCH (its p99 is what the writes do to a read):
 *
 *   - SQLite, one `promo serve` on a file;
 *   - PostgreSQL, with each count of `promo serve` in BENCH_PG_SERVERS (default 1,2) on one
 *     database of the same cluster (a fresh one per count), the clients spread round-robin
 *     over the servers as a load balancer would.
 *
 * Each engine's own limit, measured in the same run before and after its storms (the mean):
 * SQLite, a loop of tiny synchronous = FULL commits on the same disk (one writer); PostgreSQL,
 * pgbench's loop of tiny durable commits from as many clients on the same cluster. Figures:
 * redemptions/s, p50/p99, each as a ratio of its engine's limit.
 *
 * Then `promo copy` moves the SQLite run's file (its seeded data and every redemption made)
 * into an empty PostgreSQL database, and the bench counts every table on both sides (BENCH_COPY=0
 * leaves it out). The cluster: PROMO_TEST_DB, else a scratch one. On a larger box, raise the
 * clients, the servers (BENCH_PG_SERVERS=1,2,4) and each server's pool (PROMO_DB_POOL);
 * BENCH_PCT_VOUCHERS=100 spreads the requests over many percent-off codes (below).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_KEY_ENV, benchHeaders as headers, PROMO_BIN as bin, pick, post } from './support/api.js';
import { tinyCommitRate } from './support/commits.js';
import { type LoadResult, measurePosts, measureThroughput, round } from './support/load.js';
import { childrenCpuSeconds, cpuSeconds, postmasterOf } from './support/cpu.js';
import { benchCluster, copyAndCount, pgbenchTinyCommits, queryOnce } from './support/postgres-cluster.js';
import { redemptionStackBody, seedRedemptionStack } from './support/redemption-stack.js';
import { type Running, spawnListening } from './support/spawn.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const DURATION_MS = Number(process.env.BENCH_REDEMPTIONS_MS ?? 8000);
const PG_SERVERS = (process.env.BENCH_PG_SERVERS ?? '1,2').split(',').map(Number);
const COPY = process.env.BENCH_COPY !== '0';
/**
 * Percent-off vouchers the requests spread over (default 1: the redemptions bench's one
 * PCT-BENCH, a hot row every redemption locks). More shows a shop's many codes, where no one
 * voucher's lock binds: the same discount and rule as PCT-BENCH, PCT-BENCH-1 and on.
 */
const PCT_VOUCHERS = Number(process.env.BENCH_PCT_VOUCHERS ?? 1);
const LIMIT_SECONDS = 5;

interface Storm {
  redemptions: LoadResult;
  voucher_get_beside: LoadResult;
  /**
   * CPU milliseconds per redemption during the storm, of the promo servers and of PostgreSQL's
   * backends (the reads beside included: an upper bound). Unlike rates, CPU time per request
   * survives a loaded machine, and cores / (promo + postgres) is the rate a box with more
   * cores can reach if nothing else (a lock, the disk) binds first.
   */
  cpu_ms_per_redemption: { promo: number; postgres?: number };
}

/** CPU seconds so far of the servers, and of the cluster's backends when there is a postmaster. */
const cpuNow = (servers: Running[], postmaster?: number) => ({
  promo: servers.reduce((sum, s) => sum + (cpuSeconds(s.child.pid) ?? 0), 0),
  postgres: postmaster === undefined ? undefined : childrenCpuSeconds(postmaster),
});

/** Seeds through the first server, then the storm over all of them with the voucher reads beside it. */
async function storm(servers: Running[], postmaster?: number): Promise<Storm> {
  const urls = servers.map((s) => s.url);
  const products = await seedRedemptionStack((path, data) => post(`${urls[0]}${path}`, data));
  const codes = await morePercentOffVouchers(urls[0] as string);
  const body = () => {
    const request = redemptionStackBody(products);
    return { ...request, redeemables: [{ object: 'voucher', id: codes[pick(codes.length)] }, request.redeemables[1]] };
  };
  const redeem = (durationMs: number) =>
    measurePosts(
      urls.map((u) => `${u}/v1/redemptions`),
      { connections: CLIENTS, durationMs, headers, body },
    );
  await redeem(2000); // warm-up
  const before = cpuNow(servers, postmaster);
  const [redemptions, voucher] = await Promise.all([
    redeem(DURATION_MS),
    measureThroughput(
      urls.map((u) => `${u}/v1/vouchers/PCT-BENCH`),
      { connections: 2, durationMs: DURATION_MS, headers },
    ),
  ]);
  const after = cpuNow(servers, postmaster);
  const perRedemption = (a: number, b: number) => round(((b - a) * 1000) / redemptions.requests, 2);
  const cpu = { promo: perRedemption(before.promo, after.promo) };
  return {
    redemptions,
    voucher_get_beside: voucher,
    cpu_ms_per_redemption:
      before.postgres === undefined || after.postgres === undefined
        ? cpu
        : { ...cpu, postgres: perRedemption(before.postgres, after.postgres) },
  };
}

/** PCT-BENCH and PCT_VOUCHERS - 1 more like it (its discount and validation rule); their codes. */
async function morePercentOffVouchers(url: string): Promise<string[]> {
  const codes = ['PCT-BENCH'];
  if (PCT_VOUCHERS <= 1) return codes;
  const voucher = (await (await fetch(`${url}/v1/vouchers/PCT-BENCH`, { headers })).json()) as {
    discount: unknown;
    validation_rules_assignments: { data: Array<{ rule_id: string }> };
  };
  const rules = voucher.validation_rules_assignments.data.map((a) => a.rule_id);
  for (let i = 1; i < PCT_VOUCHERS; i++) {
    codes.push(`PCT-BENCH-${i}`);
    await post(`${url}/v1/vouchers/PCT-BENCH-${i}`, {
      type: 'DISCOUNT_VOUCHER',
      discount: voucher.discount,
      validation_rules: rules,
    });
  }
  return codes;
}

/** `count` servers on one database, run through `fn`, then stopped. */
async function withServers<T>(db: string, count: number, fn: (servers: Running[]) => Promise<T>): Promise<T> {
  const servers: Running[] = [];
  try {
    for (let i = 0; i < count; i++)
      servers.push(
        await spawnListening([bin, 'serve', '--port', '0', '--db', db], { ...process.env, ...BENCH_KEY_ENV }),
      );
    return await fn(servers);
  } finally {
    for (const server of servers) await server.stop();
  }
}

/** The storm's figures against the engine's limit. */
const against = (result: Storm, limit: number) => ({
  ...result,
  ratio_to_limit: round(result.redemptions.rps / limit, 3),
});

const dir = mkdtempSync(join(tmpdir(), 'promo-bench-engines-'));
const cluster = await benchCluster();
try {
  const file = join(dir, 'bench.db');
  const sqliteBefore = tinyCommitRate(dir, LIMIT_SECONDS * 1000);
  const sqlite = await withServers(file, 1, (servers) => storm(servers));
  const sqliteAfter = tinyCommitRate(dir, LIMIT_SECONDS * 1000);
  const sqliteLimit = (sqliteBefore + sqliteAfter) / 2;

  const pgBefore = await pgbenchTinyCommits(cluster, CLIENTS, LIMIT_SECONDS);
  const postgres: Record<string, Storm> = {};
  for (const count of PG_SERVERS) {
    const url = await cluster.migratedDatabase();
    // The checkpointer lives as long as the cluster: its parent is the postmaster.
    const [checkpointer] = await queryOnce<{ pid: number }>(
      url,
      "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'",
    );
    const postmaster = postmasterOf(checkpointer?.pid as number) ?? undefined;
    postgres[count] = await withServers(url, count, (servers) => storm(servers, postmaster));
  }
  const pgAfter = await pgbenchTinyCommits(cluster, CLIENTS, LIMIT_SECONDS);
  const pgLimit = (pgBefore + pgAfter) / 2;

  const copy = COPY ? await copyAndCount(bin, file, await cluster.emptyDatabase()) : undefined;
  console.log(
    JSON.stringify({
      bench: 'redemptions-engines',
      clients: CLIENTS,
      duration_ms: DURATION_MS,
      percent_off_vouchers: PCT_VOUCHERS,
      sqlite: {
        limit_tiny_full_commits_per_s: { mean: Math.round(sqliteLimit), runs: [sqliteBefore, sqliteAfter] },
        one_server: against(sqlite, sqliteLimit),
      },
      postgres: {
        limit_pgbench_tiny_commits_per_s: { clients: CLIENTS, mean: Math.round(pgLimit), runs: [pgBefore, pgAfter] },
        ...Object.fromEntries(
          Object.entries(postgres).map(([count, result]) => [`servers_${count}`, against(result, pgLimit)]),
        ),
      },
      ...(copy ? { promo_copy_of_the_sqlite_file: copy } : {}),
    }),
  );
} finally {
  await cluster.close();
  rmSync(dir, { recursive: true, force: true });
}
