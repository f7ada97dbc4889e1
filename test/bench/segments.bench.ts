/**
 * Segments at scale: the initial sync of an auto-update segment over N customers (200,000 by
 * default; BENCH_SCALE divides), and the cost a customer update pays for re-evaluating every
 * dynamic segment (100, the reference's cap, against none).
 *
 * In-process (services and the real job runner with one worker thread, on a fresh file).
 * Baselines from the same run: the same membership computed by one raw INSERT ... SELECT with
 * json_extract (what SQLite gives with none of our machinery, holding the writer throughout),
 * and the update with no dynamic segment. Prints one JSON line.
 */
import { createDeps } from '../../src/root/create-deps.js';
import { jobRegistry } from '../../src/root/job-registry.js';
import { startJobRunner } from '../../src/jobs/runner.js';
import { internalActor } from '../../src/lib/actor.js';
import { updateCustomer } from '../../src/modules/customers/customers.service.js';
import { createSegment, getSegment } from '../../src/modules/segments/segments.service.js';
import { freshDbFile } from '../support/db.js';
import { percentile, round } from './support/load.js';
import { sqliteOf } from '../support/sqlite.js';

const CUSTOMERS = 200_000 / Number(process.env.BENCH_SCALE ?? 1);
const filter = {
  junction: 'and',
  'metadata.tier': { conditions: { $in: ['gold'] } },
  'address.country': { conditions: { $is: ['PL'] } },
};

const deps = createDeps({ dbFile: freshDbFile() });
const insert = sqliteOf(deps).prepare(
  `INSERT INTO customers (id, source_id, address, metadata, system_metadata, created_at, updated_at) VALUES (?, ?, ?, ?, '{}', ?, ?)`,
);
const now = new Date().toISOString();
sqliteOf(deps).transaction(() => {
  for (let i = 0; i < CUSTOMERS; i++) {
    insert.run(
      `cust_b${i}`,
      `b${i}`,
      JSON.stringify({ country: i % 2 ? 'PL' : 'DE' }),
      JSON.stringify({ tier: i % 10 === 1 ? 'gold' : 'silver' }),
      now,
      now,
    );
  }
})();

const actor = internalActor();
async function updateP50(rounds: number, pass: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await updateCustomer(deps, actor, `b${i * 7}`, { metadata: { tier: i % 2 ? 'gold' : 'silver', pass } });
    times.push(performance.now() - t);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}
const noSegment = await updateP50(300, 0);
// Baseline: one raw statement (then undone), the same members.
let started = performance.now();
const raw = sqliteOf(
  deps,
).prepare(`INSERT INTO segment_members (segment_id, customer_id, customer_seq, created_at, updated_at, source_id)
  SELECT 'seg_raw', id, seq, created_at, updated_at, source_id FROM customers
  WHERE json_extract(metadata, '$.tier') IN ('gold') AND json_extract(address, '$.country') = 'PL'`);
sqliteOf(deps)
  .prepare(
    `INSERT INTO segments (id, name, type, filter, initial_sync_status, created_at) VALUES ('seg_raw', 'raw', 'passive', '{}', 'DONE', ?)`,
  )
  .run(now);
const rawMembers = raw.run().changes;
const rawSeconds = (performance.now() - started) / 1000;
sqliteOf(deps).prepare(`DELETE FROM segments WHERE id = 'seg_raw'`).run();

started = performance.now();
const segment = await createSegment(deps, actor, {
  name: 'Gold PL',
  type: 'auto-update',
  filter,
  customers: undefined,
});
const runner = startJobRunner(deps, { workers: 1, registry: jobRegistry, pollMs: 20 });
while ((await getSegment(deps, segment.id)).initial_sync_status !== 'DONE') await new Promise((r) => setTimeout(r, 20));
const syncSeconds = (performance.now() - started) / 1000;
await runner.stop();
const members = (
  sqliteOf(deps).prepare('SELECT count(*) AS n FROM segment_members WHERE segment_id = ?').get(segment.id) as {
    n: number;
  }
).n;
if (members !== rawMembers) throw new Error(`sync found ${members} members, the raw statement ${rawMembers}`);

const oneSegment = await updateP50(300, 1);
for (let i = 1; i < 100; i++)
  await createSegment(deps, actor, {
    name: `S${i}`,
    type: 'passive',
    filter: { junction: 'and', [`metadata.k${i}`]: { conditions: { $is: [i] } } },
    customers: undefined,
  });
const hundredSegments = await updateP50(300, 2);
await deps.close();

console.log(
  JSON.stringify({
    bench: 'segments',
    customers: CUSTOMERS,
    members,
    sync_seconds: round(syncSeconds, 2),
    sync_customers_per_s: Math.round(CUSTOMERS / syncSeconds),
    raw_insert_select_seconds: round(rawSeconds, 2),
    sync_vs_raw: round(rawSeconds / syncSeconds),
    update_p50_ms_no_segment: round(noSegment, 2),
    update_p50_ms_1_segment: round(oneSegment, 2),
    update_p50_ms_100_segments: round(hundredSegments, 2),
  }),
);
