import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openSqlite } from '../../../src/db/sqlite/connect.js';
import { tempDir } from '../../support/db.js';
import { findPostgresBinaries, postgresForTests, type TestPostgres } from '../../support/postgres.js';

/**
 * What the PostgreSQL benches share: the cluster (PROMO_TEST_DB, else a scratch one of their
 * own: test/support/postgres.ts) and its own limit for tiny durable commits, measured by
 * pgbench on the same cluster.
 */
export async function benchCluster(): Promise<TestPostgres> {
  const found = await postgresForTests();
  if (found.skip !== false) throw new Error(found.skip);
  return found.server;
}

/** One query on a connection of its own. */
export async function queryOnce<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The cluster's rate of tiny durable commits (one one-row INSERT, committed with the server's
 * defaults: fsync and synchronous_commit on) from `clients` connections for `seconds`: pgbench,
 * in its own database. PostgreSQL flushes the WAL of concurrent commits together, so with many
 * clients this is the most transactions a second any write path on this cluster can commit.
 */
export async function pgbenchTinyCommits(cluster: TestPostgres, clients: number, seconds: number): Promise<number> {
  const bin = findPostgresBinaries();
  if (!bin) throw new Error('no pgbench: PostgreSQL server programs are not installed');
  const url = await cluster.emptyDatabase();
  await queryOnce(url, 'CREATE TABLE tiny_commits (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text)');
  const script = join(tempDir('promo-bench-pgbench-'), 'tiny-commit.sql');
  writeFileSync(script, "INSERT INTO tiny_commits (v) VALUES ('x');\n");
  const threads = String(Math.min(clients, 2));
  const output = execFileSync(
    join(bin, 'pgbench'),
    ['-n', '-f', script, '-c', String(clients), '-j', threads, '-T', String(seconds), url],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const tps = /tps = ([\d.]+)/.exec(output)?.[1];
  if (tps === undefined) throw new Error(`pgbench printed no tps:\n${output}`);
  return Math.round(Number(tps));
}

/** The counters kept in 16 slots on PostgreSQL: their totals are compared, not their rows. */
const SLOTTED = new Set(['customer_counts', 'order_counts', 'publication_counts', 'redemption_counts']);

/**
 * `promo copy --from file --to url` (the real binary), timed; then every table's rows counted
 * on both sides by the bench itself (a slotted counter by its summed total), each pair equal or
 * the bench fails. Answers the copy's report and the rows counted.
 */
export async function copyAndCount(
  bin: string,
  file: string,
  url: string,
): Promise<{ seconds: number; rows: number; tables: number; rows_per_s: number; counts_match: true }> {
  const started = performance.now();
  const out = execFileSync(process.execPath, [bin, 'copy', '--from', file, '--to', url, '--json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(out) as { rows: number; tables: unknown[] };
  const sqlite = openSqlite(file, { synchronous: 'NORMAL' });
  try {
    const tables = sqlite
      // schema_migrations is each engine's own (PostgreSQL's baseline stands for versions 1-31).
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    const mismatches: string[] = [];
    for (const table of tables) {
      const what = SLOTTED.has(table) ? 'coalesce(sum(total), 0)' : 'count(*)';
      const source = sqlite.prepare(`SELECT ${what} AS n FROM "${table}"`).get() as { n: number };
      const [target] = await queryOnce<{ n: number }>(url, `SELECT ${what} AS n FROM "${table}"`);
      if (Number(target?.n) !== source.n) mismatches.push(`${table}: ${source.n} in the file, ${target?.n} copied`);
    }
    if (mismatches.length > 0) throw new Error(`promo copy: counts differ:\n${mismatches.join('\n')}`);
    return {
      seconds,
      rows: report.rows,
      tables: tables.length,
      rows_per_s: Math.round(report.rows / seconds),
      counts_match: true,
    };
  } finally {
    sqlite.close();
  }
}
