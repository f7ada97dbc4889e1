import BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrations.js';
import { AppError } from '../../lib/errors.js';

/** A table of the source as promo copy moves it: its stored columns (generated ones are the target's to compute). */
export interface SourceTable {
  name: string;
  columns: string[];
  rows: number;
}

/** A SQLite database file opened to be copied, read in one snapshot from first table to last checksum. */
export interface CopySource {
  tables: SourceTable[];
  /** The rows of `table`'s `columns`, `batch` at a time, as arrays in column order. */
  batches(table: string, columns: readonly string[], batch: number): Generator<unknown[][]>;
  close(): void;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Opens `file` read-only for promo copy. Its schema must be this promo's newest (the target is
 * made at the newest, and columns are matched by name): an older file is refused with the
 * command that brings it up to date, rather than migrated here (a copy does not change its
 * source). Everything is read inside one read transaction: a server still writing to the file
 * does not tear the copy (its later commits are simply not in it).
 */
export function openCopySource(file: string, migrations: readonly Migration[]): CopySource {
  const sqlite = new BetterSqlite3(file, { fileMustExist: true, readonly: true });
  try {
    sqlite.exec('BEGIN');
    checkVersion(sqlite, file, migrations);
    const tables = (
      sqlite
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                    AND name <> 'schema_migrations' ORDER BY name`)
        .pluck()
        .all() as string[]
    ).map((name) => ({
      name,
      // table_xinfo's hidden: 0 a stored column, 2 and 3 generated (virtual, stored).
      columns: (sqlite.pragma(`table_xinfo(${quoted(name)})`) as Array<{ name: string; hidden: number }>)
        .filter((c) => c.hidden === 0)
        .map((c) => c.name),
      rows: sqlite
        .prepare(`SELECT count(*) FROM ${quoted(name)}`)
        .pluck()
        .get() as number,
    }));
    return {
      tables,
      *batches(table, columns, batch) {
        const statement = sqlite.prepare(`SELECT ${columns.map(quoted).join(', ')} FROM ${quoted(table)}`).raw();
        let rows: unknown[][] = [];
        for (const row of statement.iterate() as Iterable<unknown[]>) {
          rows.push(row);
          if (rows.length === batch) {
            yield rows;
            rows = [];
          }
        }
        if (rows.length > 0) yield rows;
      },
      close: () => sqlite.close(),
    };
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

function checkVersion(sqlite: BetterSqlite3.Database, file: string, migrations: readonly Migration[]): void {
  const newest = migrations.at(-1)?.version ?? 0;
  const hasTable = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'`).get();
  const found = hasTable
    ? ((sqlite.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number | null) ?? 0)
    : 0;
  if (found > newest)
    throw new AppError(
      'schema_too_new',
      `${file} is at schema version ${found}, but this promo knows only up to ${newest}. Upgrade promo to copy it.`,
    );
  if (found < newest)
    throw new AppError(
      'schema_too_old',
      `${file} is at schema version ${found}; promo copy moves a database at this promo's newest, ${newest}. Take a backup (promo backup), then run promo migrate --db ${file}, and copy again.`,
    );
}
