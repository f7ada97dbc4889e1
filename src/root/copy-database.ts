import { AppError } from '../lib/errors.js';
import { TableChecksum } from '../db/copy-checksum.js';
import { openCopyTarget, type CopyTarget, type TargetTable } from '../db/postgres/copy-target.js';
import { loadPostgresMigrations } from '../db/postgres/migrate.js';
import { openCopySource, type CopySource, type SourceTable } from '../db/sqlite/copy-source.js';
import { loadMigrations } from '../db/sqlite/migrate.js';

/** Where promo copy is: which table, and rows done of all (each phase counts every row once). */
export interface CopyProgress {
  phase: 'copy' | 'verify';
  table: string;
  done: number;
  total: number;
}

export interface CopiedTable {
  name: string;
  rows: number;
  /** TableChecksum's value, equal on both sides. */
  checksum: string;
}

export interface CopyReport {
  tables: CopiedTable[];
  rows: number;
  seconds: number;
}

/** Source rows read (and sent) at a time: memory stays bounded whatever the size of a table. */
const BATCH_ROWS = 2000;

/**
 * promo copy: the whole SQLite database `from` into the empty PostgreSQL database `to`,
 * streamed in batches, then verified table by table (row counts and TableChecksum of the
 * canonical values, read again from both sides), all in one PostgreSQL transaction: a failure
 * or a mismatch anywhere commits nothing. Identities continue past the copied rows; each
 * counter's total lands in slot 0 of its 16.
 */
export async function copyDatabase(
  from: string,
  to: string,
  onProgress: (progress: CopyProgress) => void = () => undefined,
): Promise<CopyReport> {
  const started = performance.now();
  const source = openCopySource(from, loadMigrations());
  let target: CopyTarget | undefined;
  try {
    target = await openCopyTarget(to, loadPostgresMigrations());
    const plan = pairTables(source, target);
    const total = plan.reduce((n, { source: table }) => n + table.rows, 0);
    let done = 0;
    for (const { source: table, columns, target: into } of plan) {
      for (const rows of source.batches(table.name, columns, BATCH_ROWS)) {
        if (into.slotted) await target.setCounters(table.name, columns, rows);
        else await target.insert(table.name, columns, rows);
        done += rows.length;
        onProgress({ phase: 'copy', table: table.name, done, total });
      }
      // An empty table is a step too: a log shows it was reached.
      if (table.rows === 0) onProgress({ phase: 'copy', table: table.name, done, total });
    }
    await target.finish();
    const tables = await verify(source, target, plan, (table, verified) =>
      onProgress({ phase: 'verify', table, done: verified, total }),
    );
    await target.commit();
    return { tables, rows: total, seconds: (performance.now() - started) / 1000 };
  } finally {
    source.close();
    await target?.close();
  }
}

interface TablePlan {
  source: SourceTable;
  target: TargetTable;
  /** The source's stored columns; a counter's key columns, then its total. */
  columns: string[];
}

/** Each target table with its source, in the target's order; the two schemas must hold the same tables and columns. */
function pairTables(source: CopySource, target: CopyTarget): TablePlan[] {
  const byName = new Map(source.tables.map((t) => [t.name, t]));
  const names = (list: Iterable<string>) => [...list].sort().join(', ');
  if (names(byName.keys()) !== names(target.tables.keys()))
    throw new AppError(
      'copy_mismatch',
      `The source's tables (${names(byName.keys())}) are not the target's (${names(target.tables.keys())})`,
    );
  return target.order.map((name) => {
    const from = byName.get(name) as SourceTable;
    const into = target.tables.get(name) as TargetTable;
    if (names(from.columns) !== names(into.columns.keys()))
      throw new AppError(
        'copy_mismatch',
        `Table ${name}: the source's columns (${names(from.columns)}) are not the target's (${names(into.columns.keys())})`,
      );
    const columns = into.slotted ? [...from.columns.filter((c) => c !== 'total'), 'total'] : from.columns;
    return { source: from, target: into, columns };
  });
}

async function verify(
  source: CopySource,
  target: CopyTarget,
  plan: TablePlan[],
  onTable: (table: string, verified: number) => void,
): Promise<CopiedTable[]> {
  const copied: CopiedTable[] = [];
  let verified = 0;
  for (const { source: table, target: into, columns } of plan) {
    const expected = new TableChecksum(columns.map((c) => into.columns.get(c) ?? 'text'));
    for (const rows of source.batches(table.name, columns, BATCH_ROWS)) for (const row of rows) expected.add(row);
    const found = await target.checksum(table.name, columns);
    if (found.count !== expected.count || found.value !== expected.value)
      throw new AppError(
        'copy_mismatch',
        `Table ${table.name}: the source has ${expected.count} rows (checksum ${expected.value}), the copy ${found.count} (checksum ${found.value}); nothing was committed`,
      );
    copied.push({ name: table.name, rows: expected.count, checksum: expected.value });
    verified += table.rows;
    onTable(table.name, verified);
  }
  return copied;
}
