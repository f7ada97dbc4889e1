/**
 * Bulk updates through the real `promo serve` (one worker thread): a CUSTOMERS.BULK_UPDATE of
 * 10,000 new customers (each created by the upsert, with its customer.created event), the same
 * 10,000 again as updates (a changed name and phone, customer.updated), and a
 * CUSTOMERS.METADATA_UPDATE merging one metadata into the 10,000. Each is timed from the POST
 * to the job's end (polled every 20 ms), as entries per second.
 *
 * Baseline, in the same run: the raw better-sqlite3 prepared-insert loop of the generation
 * benches (support/raw-insert.ts), before and after (their mean); the figure is each rate's
 * ratio to it. BENCH_COUNT=1000 runs a quick check of the bench itself.
 */
import { fileURLToPath } from 'node:url';
import { freshDbFile } from '../support/db.js';
import { benchHeaders, BENCH_KEY_ENV, post } from './support/api.js';
import { round } from './support/load.js';
import { betweenRawLoops } from './support/raw-insert.js';
import { spawnListening } from './support/spawn.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 10_000);
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));

const server = await spawnListening([bin, 'serve', '--port', '0', '--db', freshDbFile(), '--workers', '1'], {
  ...process.env,
  ...BENCH_KEY_ENV,
});

/** Posts a bulk update (202) and waits for its job to end DONE with nothing failed; answers entries/s. */
async function timed(path: string, body: unknown): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...benchHeaders, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const accepted = (await res.json()) as { async_action_id: string };
  if (res.status !== 202) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(accepted)}`);
  for (;;) {
    const job = (await (
      await fetch(`${server.url}/v1/async-actions/${accepted.async_action_id}`, { headers: benchHeaders })
    ).json()) as {
      status: string;
      result?: { done_count: number; failed_count: number };
    };
    if (job.status === 'DONE' || job.status === 'FAILED') {
      if (job.status !== 'DONE' || job.result?.failed_count !== 0 || job.result.done_count !== COUNT)
        throw new Error(`${path}: ${JSON.stringify(job)}`);
      return COUNT / ((performance.now() - started) / 1000);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sourceIds = Array.from({ length: COUNT }, (_, i) => `bulk-${i}`);
try {
  await post(`${server.url}/v1/customers`, { source_id: 'warm-up' });
  const { served, raw, runs } = await betweenRawLoops(COUNT, async () => ({
    created: await timed(
      '/v1/customers/bulk/async',
      sourceIds.map((s) => ({ source_id: s, name: `Customer ${s}`, email: `${s}@example.com`, metadata: { n: 1 } })),
    ),
    updated: await timed(
      '/v1/customers/bulk/async',
      sourceIds.map((s) => ({ source_id: s, name: `Renamed ${s}`, phone: '+48 600 000 000' })),
    ),
    merged: await timed('/v1/customers/metadata/async', {
      source_ids: sourceIds,
      metadata: { tier: 'gold', score: 7 },
    }),
  }));
  console.log(
    JSON.stringify({
      bench: 'bulk-updates',
      entries: COUNT,
      created_per_s: Math.round(served.created),
      updated_per_s: Math.round(served.updated),
      metadata_merged_per_s: Math.round(served.merged),
      raw_insert_rows_per_s: Math.round(raw),
      raw_runs: runs,
      ratio_created: round(served.created / raw, 4),
      ratio_updated: round(served.updated / raw, 4),
      ratio_merged: round(served.merged / raw, 4),
    }),
  );
} finally {
  await server.stop();
}
