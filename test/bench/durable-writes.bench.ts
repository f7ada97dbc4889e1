/**
 * Durable writes under concurrency (issue 13, point 4: group commit). Through the real
 * `promo serve` (synchronous = FULL): POST /v1/customers from 1 and from 16 closed-loop
 * clients, with the mean commit batch from /metrics, and the p99 of a GET /v1/customers/{id}
 * reader during the 16-client storm. Baselines in the same run: a loop of tiny FULL commits on
 * the same disk (what one fsync per request would cap the rate at) and GET /health.
 */
import { Agent } from 'node:http';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDbFile } from '../support/db.js';
import { jsonRequest, measurePosts, measureThroughput, percentile, round } from './support/load.js';
import { commitFigures, meanBatch, tinyCommitRate } from './support/commits.js';
import { spawnListening } from './support/spawn.js';

const APP = { id: 'bench-app', token: 'bench-token-0123456789' };
const HEADERS = { 'X-App-Id': APP.id, 'X-App-Token': APP.token };
const DURATION_MS = 4000;
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));

/** GET latencies, one request at a time, until `done()`. */
async function readerLatencies(base: string, path: string, done: () => boolean): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  while (!done()) {
    const t0 = performance.now();
    const res = await jsonRequest(agent, base, HEADERS, 'GET', path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    latencies.push(performance.now() - t0);
  }
  agent.destroy();
  return latencies.sort((a, b) => a - b);
}

async function main() {
  const dbFile = freshDbFile();
  const tinyBefore = tinyCommitRate(dirname(dbFile), 2000);
  const server = await spawnListening([bin, 'serve', '--port', '0', '--db', dbFile], {
    ...process.env,
    PROMO_APP_ID: APP.id,
    PROMO_APP_TOKEN: APP.token,
  });
  try {
    const agent = new Agent({ keepAlive: true });
    const seeded = await jsonRequest<{ id: string }>(
      agent,
      server.url,
      { ...HEADERS, 'Content-Type': 'application/json' },
      'POST',
      '/v1/customers',
      { source_id: 'reader' },
    );
    agent.destroy();
    const health = await measureThroughput(`${server.url}/health`, { durationMs: DURATION_MS });
    let n = 0;
    const body = () => ({ source_id: `bench-${n++}`, name: 'Bench customer', metadata: { tier: 'gold' } });
    const posts = (connections: number) =>
      measurePosts(`${server.url}/v1/customers`, { connections, durationMs: DURATION_MS, headers: HEADERS, body });
    const one = await posts(1);
    const before = await commitFigures(server.url);
    let storming = true;
    const reads = readerLatencies(server.url, `/v1/customers/${seeded.body.id}`, () => !storming);
    const sixteen = await posts(16);
    storming = false;
    const readLatencies = await reads;
    const after = await commitFigures(server.url);
    const tinyAfter = tinyCommitRate(dirname(dbFile), 2000);
    console.log(
      JSON.stringify({
        bench: 'durable-writes',
        tiny_full_commits_per_s: { before: tinyBefore, after: tinyAfter },
        health_rps: health.rps,
        post_customers_1_client: one,
        post_customers_16_clients: sixteen,
        ratio_16_to_1: round(sixteen.rps / one.rps, 2),
        mean_commit_batch_16_clients: meanBatch(before, after),
        get_customer_during_storm: {
          p50_ms: round(percentile(readLatencies, 50)),
          p99_ms: round(percentile(readLatencies, 99)),
          n: readLatencies.length,
        },
      }),
    );
  } finally {
    await server.stop();
  }
}

await main();
