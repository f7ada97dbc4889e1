/**
 * Voucher generation on PostgreSQL: POST /v1/campaigns/{id}/vouchers?vouchers_count=N through
 * the real `promo serve --workers 2 --db postgres://...`, until the async action is DONE.
 *
 * Baseline, in the same run, on the same cluster: a raw batched insert of as many random codes
 * into the same schema (another database from the same migrations): multi-row `INSERT ...
 * ON CONFLICT (code) DO NOTHING` of 1,000 rows with the columns the job binds, 10,000 rows per
 * transaction (the portions' order of size), codes and ids drawn before the clock starts; run
 * before and after the server (the baseline is their mean). Figures: rows/s of both and their
 * ratio. The cluster: PROMO_TEST_DB, else a scratch one (test/support/postgres.ts).
 *
 * BENCH_COUNT (default 50,000) sets N: small enough for a minute on a loaded 2-core machine.
 */
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { newId } from '../../src/lib/ids.js';
import { postgresForTests, type TestPostgres } from '../support/postgres.js';
import { jsonRequest, round } from './support/load.js';
import { spawnListening } from './support/spawn.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 50_000);
const BATCH = 1000;
const PER_TRANSACTION = 10_000;
const APP_ID = 'bench-app';
const APP_TOKEN = 'bench-token-0123456789';
const HEADERS = { 'X-App-Id': APP_ID, 'X-App-Token': APP_TOKEN, 'Content-Type': 'application/json' };
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));

interface Answer {
  id: string;
  status: string;
  vouchers_count: number;
  async_action_id: string;
}

async function serverRun(url: string): Promise<number> {
  const env = { ...process.env, PROMO_APP_ID: APP_ID, PROMO_APP_TOKEN: APP_TOKEN };
  const server = await spawnListening([bin, 'serve', '--port', '0', '--db', url, '--workers', '2'], env);
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  const call = (method: string, path: string, body?: unknown) =>
    jsonRequest<Answer>(agent, server.url, HEADERS, method, path, body);
  try {
    await call('POST', '/v1/campaigns', {
      name: 'Bench',
      campaign_type: 'DISCOUNT_COUPONS',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, code_config: { length: 8 } },
    });
    const started = performance.now();
    const accepted = await call('POST', `/v1/campaigns/Bench/vouchers?vouchers_count=${COUNT}`);
    if (accepted.status !== 202) throw new Error(`add vouchers: ${JSON.stringify(accepted.body)}`);
    for (let status = ''; status !== 'DONE'; ) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await call('GET', `/v1/async-actions/${accepted.body.async_action_id}`)).body.status;
      if (status === 'FAILED') throw new Error('the generation FAILED');
    }
    const seconds = (performance.now() - started) / 1000;
    const count = (await call('GET', '/v1/campaigns/Bench')).body.vouchers_count;
    if (count !== COUNT) throw new Error(`campaign holds ${count} vouchers, expected ${COUNT}`);
    return COUNT / seconds;
  } finally {
    agent.destroy();
    await server.stop();
  }
}

const CHARSET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const randomCode = () => Array.from({ length: 8 }, () => CHARSET[Math.floor(Math.random() * CHARSET.length)]).join('');

/** The raw loop: the rows the job writes (id, code, campaign, type, discount, dates), batched, in a fresh database. */
async function rawRun(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const campaign = newId('camp_');
    const now = new Date().toISOString();
    await client.query(
      `INSERT INTO campaigns (id, name, campaign_type, type, creation_status, vouchers_generation_status, created_at)
       VALUES ($1, 'Raw', 'DISCOUNT_COUPONS', 'AUTO_UPDATE', 'DONE', 'DONE', $2)`,
      [campaign, now],
    );
    const rows = Array.from({ length: COUNT }, () => [newId('v_'), randomCode()]);
    const discount = JSON.stringify({ type: 'PERCENT', percent_off: 10 });
    const started = performance.now();
    for (let t = 0; t < COUNT; t += PER_TRANSACTION) {
      await client.query('BEGIN');
      for (let b = t; b < Math.min(COUNT, t + PER_TRANSACTION); b += BATCH) {
        const batch = rows.slice(b, b + BATCH);
        const tuples = batch.map(
          (_, i) => `($${i * 6 + 1}, $${i * 6 + 2}, $${i * 6 + 3}, $${i * 6 + 4}, $${i * 6 + 5}, $${i * 6 + 6})`,
        );
        await client.query(
          `INSERT INTO vouchers (id, code, campaign_id, type, discount, created_at) VALUES ${tuples.join(', ')}
           ON CONFLICT (code) DO NOTHING`,
          batch.flatMap(([id, code]) => [id, code, campaign, 'DISCOUNT_VOUCHER', discount, now]),
        );
      }
      await client.query('COMMIT');
    }
    return COUNT / ((performance.now() - started) / 1000);
  } finally {
    await client.end();
  }
}

const found = await postgresForTests();
if (found.skip !== false) throw new Error(found.skip);
const cluster: TestPostgres = found.server;
try {
  const before = await rawRun(await cluster.migratedDatabase());
  const served = await serverRun(await cluster.migratedDatabase());
  const afterRaw = await rawRun(await cluster.migratedDatabase());
  const raw = (before + afterRaw) / 2;
  process.stdout.write(
    `${JSON.stringify({
      bench: 'postgres-generate',
      count: COUNT,
      server_rows_per_s: Math.round(served),
      raw_rows_per_s: Math.round(raw),
      raw_runs_rows_per_s: [Math.round(before), Math.round(afterRaw)],
      ratio: round(served / raw, 3),
    })}\n`,
  );
} finally {
  await cluster.close();
}
