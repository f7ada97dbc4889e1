/**
 * Export of 1,000,000 vouchers (issue 14 point 7): `promo export voucher --fields ... --out
 * file --db <seeded file>` (the real binary, spawned: the EXPORT job in its worker thread,
 * then the file copied to --out); rows/s and the process's peak RSS.
 *
 * Baseline, in the same run: this file re-run as a child with `baseline`, a raw better-sqlite3
 * iterate over the same rows in the same order computing the same cells (csvCell) into the
 * same CSV, written to a file in 64 KiB chunks. Its output must be byte-identical to the
 * export's (`identical`). Both children are measured alike (GNU time's %M, else VmHWM polled).
 *
 * The vouchers: one campaign, created over a year in ticks that 1,000 vouchers share (so the
 * walk meets ties on created_at), a tenth with metadata that needs quoting (commas, quotes,
 * newlines). The export orders by created_at, through the keyset walk of the job.
 *
 * Target: identical files, and a peak RSS under 400 MB that does not grow with the rows: the
 * command holds two threads' runtimes (the CLI's and the job's worker) and two connections,
 * each with a page cache of up to 64 MB (connect.ts, worker.ts), that the walk fills; the CSV
 * itself is streamed. (BENCH_SCALE=100 shows the same process's floor.)
 *
 * The seeded database is kept under the OS temp dir, keyed by SEED_VERSION and the migrations'
 * hash (cached-seed.ts). BENCH_SCALE=100 runs a hundredth of the data.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { loadMigrations } from '../../src/db/sqlite/migrate.js';
import { csvCell, csvLine } from '../../src/lib/csv.js';
import { exportsDirectory } from '../../src/modules/exports/exports.service.js';
import { tempDir } from '../support/db.js';
import { cachedSeed } from './support/cached-seed.js';
import { round } from './support/load.js';
import { runMeasured } from './support/measure.js';

const SEED_VERSION = 'export-v1';
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const VOUCHERS = 1_000_000 / SCALE;
const BATCH = 50_000;
const FIELDS = ['code', 'voucher_type', 'value', 'discount_type', 'campaign', 'created_at', 'metadata'];
const CAMPAIGN = { id: 'camp_bench00000000', name: 'Export bench' };
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));
const self = fileURLToPath(import.meta.url);

const migrationsHash = createHash('sha256')
  .update(
    loadMigrations()
      .map((m) => m.sql)
      .join('\n'),
  )
  .digest('hex');
const key = createHash('sha256').update(`${SEED_VERSION}/${SCALE}/${migrationsHash}`).digest('hex').slice(0, 12);
const dbFile = join(tmpdir(), `promo-bench-export-${key}.db`);
const T_BASE = Date.UTC(2023, 0, 1);

function seedVouchers(sqlite: BetterSqlite3.Database): void {
  sqlite
    .prepare(`INSERT INTO campaigns (id, name, campaign_type, type, voucher, vouchers_count, creation_status, vouchers_generation_status, created_at)
      VALUES (?, ?, 'DISCOUNT_COUPONS', 'AUTO_UPDATE', ?, ?, 'DONE', 'DONE', ?)`)
    .run(
      CAMPAIGN.id,
      CAMPAIGN.name,
      JSON.stringify({ type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } }),
      VOUCHERS,
      new Date(T_BASE).toISOString(),
    );
  const insert = sqlite.prepare(
    `INSERT INTO vouchers (id, code, campaign_id, type, discount, metadata, created_at) VALUES (?, ?, ?, 'DISCOUNT_VOUCHER', ?, ?, ?)`,
  );
  for (let start = 0; start < VOUCHERS; start += BATCH) {
    sqlite.transaction(() => {
      for (let i = start; i < Math.min(start + BATCH, VOUCHERS); i++) {
        const discount = i % 3 === 0 ? '{"type":"AMOUNT","amount_off":500}' : '{"type":"PERCENT","percent_off":10}';
        const metadata = i % 10 === 0 ? JSON.stringify({ note: `batch ${i}, "quoted"\nsecond line` }) : '{}';
        // Ticks of 1,000 vouchers; the ticks in reverse of insertion for every other block, so created_at order is not seq order.
        const tick = Math.floor(i / 1000);
        const created = T_BASE + (tick % 2 === 0 ? tick : VOUCHERS / 1000 - tick) * 30_000;
        insert.run(
          `v_bench${String(i).padStart(9, '0')}`,
          `EXP-${String(i).padStart(8, '0')}`,
          CAMPAIGN.id,
          discount,
          metadata,
          new Date(created).toISOString(),
        );
      }
    })();
  }
}

/** The baseline: the same rows in the same order, the same cells, straight from better-sqlite3. */
function rawExport(out: string): void {
  const sqlite = openSqlite(dbFile, { synchronous: 'NORMAL' });
  const rows = sqlite
    .prepare(`SELECT v.code, v.type, v.discount, v.metadata, v.created_at, (SELECT name FROM campaigns c WHERE c.id = v.campaign_id) AS campaign
      FROM vouchers v ORDER BY v.created_at, v.seq`)
    .iterate() as IterableIterator<{
    code: string;
    type: string;
    discount: string;
    metadata: string;
    created_at: string;
    campaign: string;
  }>;
  const fd = openSync(out, 'w');
  let chunk = csvLine(FIELDS);
  for (const row of rows) {
    const discount = JSON.parse(row.discount) as { type: string; amount_off?: number; percent_off?: number };
    chunk += `${[row.code, row.type, discount.amount_off ?? discount.percent_off, discount.type, row.campaign, row.created_at, row.metadata].map(csvCell).join(',')}\r\n`;
    if (chunk.length >= 65_536) {
      writeSync(fd, chunk);
      chunk = '';
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
  sqlite.close();
}

const sha256 = (file: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (d) => hash.update(d))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });

if (process.argv.includes('baseline')) {
  rawExport(process.argv[process.argv.indexOf('baseline') + 1] as string);
} else {
  const seeded = cachedSeed(dbFile, ['vouchers'], seedVouchers);
  const dir = tempDir('promo-bench-export-');
  const [exportFile, baselineFile] = [join(dir, 'export.csv'), join(dir, 'baseline.csv')];
  const baseline = await runMeasured(['--import', 'tsx', self, 'baseline', baselineFile], 'the baseline');
  const exported = await runMeasured(
    [
      bin,
      'export',
      'voucher',
      '--fields',
      FIELDS.join(','),
      '--order',
      'created_at',
      '--out',
      exportFile,
      '--db',
      dbFile,
    ],
    'promo export',
  );
  const identical = (await sha256(exportFile)) === (await sha256(baselineFile));
  // What the request reads on the API's thread to fix the export's rows (the table's highest
  // seq), beside the count it does not make (a count of the table would hold the thread).
  const sqlite = openSqlite(dbFile, { synchronous: 'NORMAL' });
  const timed = (query: string) => {
    const t0 = performance.now();
    sqlite.prepare(query).get();
    return round(performance.now() - t0, 2);
  };
  const requestMs = timed('SELECT max(seq) FROM vouchers');
  const countMs = timed('SELECT count(*) FROM vouchers');
  sqlite.close();
  rmSync(exportsDirectory(dbFile), { recursive: true, force: true });
  const rate = VOUCHERS / exported.seconds;
  const baselineRate = VOUCHERS / baseline.seconds;
  console.log(
    JSON.stringify({
      bench: 'export',
      vouchers: VOUCHERS,
      seeded_now: !seeded.reused,
      seed_seconds: seeded.seconds,
      csv_mb: round(statSync(exportFile).size / 1048576, 1),
      identical,
      export_rows_per_s: Math.round(rate),
      export_seconds: round(exported.seconds, 1),
      export_peak_rss_mb: round(exported.peakRssMb, 0),
      baseline_rows_per_s: Math.round(baselineRate),
      baseline_seconds: round(baseline.seconds, 1),
      baseline_peak_rss_mb: round(baseline.peakRssMb, 0),
      ratio: round(rate / baselineRate, 2),
      request_max_seq_ms: requestMs,
      count_not_made_ms: countMs,
      target: { identical: true, export_peak_rss_mb: '< 400' },
      pass: identical && exported.peakRssMb < 400,
    }),
  );
  rmSync(dir, { recursive: true, force: true });
}
