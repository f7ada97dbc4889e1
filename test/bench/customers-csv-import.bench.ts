/**
 * Customers CSV import: `promo import customers.csv --type customers --db <file>` (the real
 * binary, spawned) on a file of 1,000,000 customers; wall time and the child's peak RSS.
 *
 * Each row is a new customer: Source_id, Name (quoted, with a comma), Email, Phone,
 * Address_City, Address_Postal_Code and one metadata column (tier), in that column order
 * after a BOM. So each row is parsed by csv-parse, staged as a job item, mapped to the body
 * of POST /v1/customers, checked by its schema and upserted by source_id in a savepoint.
 *
 * Baseline, in the same run (as orders-import.bench.ts): a raw better-sqlite3 prepared-insert
 * loop of the same customer rows (address and metadata JSON computed before the clock starts)
 * into a fresh migrated file with a worker's pragmas, one transaction; run before and after
 * the import (the baseline is their mean).
 *
 * Figures: customers/s of both and their ratio, and the import's peak RSS (target < 300 MB,
 * the orders import's). BENCH_COUNT=10000 runs a smaller file: a quick check of the bench.
 */
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { newId } from '../../src/lib/ids.js';
import { freshDbFile, tempDir } from '../support/db.js';
import { round } from './support/load.js';
import { measuredImport } from './support/measure.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 1_000_000);
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));
const dir = tempDir('promo-bench-csv-');
const TIERS = ['gold', 'silver', 'bronze'];

const customer = (n: number) => ({
  source_id: `c-${n}`,
  name: `Smith, Customer ${n}`,
  email: `c${n}@example.com`,
  phone: `+48 600 ${String(n).padStart(7, '0')}`,
  city: `City ${n % 500}`,
  postal_code: String(10000 + (n % 90000)),
  tier: TIERS[n % 3] as string,
});

/** Writes the CSV; returns its size in bytes. */
function writeCsv(file: string, count: number): number {
  const fd = openSync(file, 'w');
  let bytes = 0;
  let chunk = ['\uFEFFSource_id,Name,Email,Phone,Address_City,Address_Postal_Code,tier\r\n'];
  const flush = () => {
    const text = chunk.join('');
    bytes += Buffer.byteLength(text);
    writeSync(fd, text);
    chunk = [];
  };
  for (let n = 0; n < count; n++) {
    const c = customer(n);
    chunk.push(`${c.source_id},"${c.name}",${c.email},${c.phone},${c.city},${c.postal_code},${c.tier}\r\n`);
    if (chunk.length >= 10_000) flush();
  }
  flush();
  closeSync(fd);
  return bytes;
}

function rawInsertRate(count: number): number {
  const file = freshDbFile();
  const now = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, n) => {
    const c = customer(n);
    return [
      newId('cust_'),
      c.source_id,
      c.name,
      c.email,
      c.phone,
      JSON.stringify({ city: c.city, postal_code: c.postal_code }),
      JSON.stringify({ tier: c.tier }),
      now,
      now,
    ];
  });
  const sqlite = openSqlite(file, { synchronous: 'NORMAL' });
  sqlite.pragma('cache_size = -65536');
  const insert =
    sqlite.prepare(`INSERT INTO customers (id, source_id, name, email, phone, address, metadata, system_metadata, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, '{}', ?, ?)`);
  const started = performance.now();
  sqlite.transaction(() => rows.forEach((row) => insert.run(...row)))();
  const seconds = (performance.now() - started) / 1000;
  checkCount(sqlite, count, 'the raw loop');
  sqlite.close();
  rmSync(file, { force: true });
  return count / seconds;
}

function checkCount(sqlite: ReturnType<typeof openSqlite>, count: number, who: string): void {
  const got = (sqlite.prepare('SELECT count(*) AS n FROM customers').get() as { n: number }).n;
  if (got !== count) throw new Error(`${who} stored ${got} customers, expected ${count}`);
  const last = sqlite
    .prepare('SELECT name, address, metadata FROM customers WHERE source_id = ?')
    .get(`c-${count - 1}`) as Record<string, string>;
  const c = customer(count - 1);
  const want = {
    name: c.name,
    address: JSON.stringify({ city: c.city, postal_code: c.postal_code }),
    metadata: JSON.stringify({ tier: c.tier }),
  };
  if (JSON.stringify(last) !== JSON.stringify(want))
    throw new Error(`${who} stored ${JSON.stringify(last)}, expected ${JSON.stringify(want)}`);
}

const importRun = (count: number) =>
  measuredImport(
    {
      write: (file) => writeCsv(file, count),
      args: (file, dbFile) => [bin, 'import', file, '--type', 'customers', '--db', dbFile],
      check: (sqlite) => checkCount(sqlite, count, 'promo import'),
    },
    `${dir}/customers-${count}.csv`,
    count,
  );

const rawBefore = rawInsertRate(COUNT);
const imported = await importRun(COUNT);
const rawAfter = rawInsertRate(COUNT);
const raw = (rawBefore + rawAfter) / 2;
const result = {
  bench: 'customers-csv-import',
  count: COUNT,
  file_mb: round(imported.fileMb, 1),
  import_customers_per_s: Math.round(imported.rate),
  import_s: round(imported.seconds, 1),
  raw_customers_per_s: Math.round(raw),
  raw_runs_customers_per_s: [Math.round(rawBefore), Math.round(rawAfter)],
  ratio: round(imported.rate / raw, 3),
  peak_rss_mb: round(imported.peakRssMb, 1),
  targets: { peak_rss_mb: '< 300' },
  pass: imported.peakRssMb < 300,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
