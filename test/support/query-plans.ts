import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import type { Database } from '../../src/db/database.js';
import type { Fixture } from './list-variants.js';
import type { Statement } from './plan-server.js';

/**
 * Reading SQLite's query plans of the statements our code runs (docs/architecture.md, Design rules: every list page is
 * read by walking an index, never by scanning a table or sorting into a temporary B-tree).
 * Shared by test/architecture/query-plans.test.ts and the list-stall bench.
 */

/**
 * Tables small by nature, which a plan may read whole: campaigns are made one at a time by an
 * operator (hundreds, not millions: the vouchers in them are the big table), and the totals of
 * the campaign and voucher lists sum over the live ones.
 */
const SMALL_TABLES = new Set(['campaigns', 'customer_counts', 'schema_migrations']);

export interface PlanRow {
  detail: string;
}

/** What is wrong with a plan, one entry per bad step (none when it is all index work). */
export function planProblems(rows: PlanRow[], allowed = { sort: false, scan: false }): string[] {
  // Subqueries and co-routines are named in the plan before they are scanned: not tables.
  const derived = new Set(rows.flatMap(({ detail }) => /^(?:CO-ROUTINE|MATERIALIZE) (\S+)$/.exec(detail)?.[1] ?? []));
  return rows.flatMap(({ detail }) => {
    if (/TEMP B-TREE FOR .*ORDER BY/.test(detail)) return allowed.sort ? [] : [detail];
    const scan = /^SCAN (\S+)(?: AS \S+)?$/.exec(detail)?.[1];
    if (scan === undefined || allowed.scan || derived.has(scan) || scan.startsWith('(subquery-')) return [];
    return SMALL_TABLES.has(scan) ? [] : [detail];
  });
}

/** A Kysely over this connection that hands every statement it runs, as compiled, to `sink`. */
export function recordingKysely(
  sqlite: BetterSqlite3.Database,
  sink: (query: CompiledQuery) => void,
): Kysely<Database> {
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      if (event.level === 'query') sink(event.query);
    },
  });
}

/** EXPLAIN QUERY PLAN of a statement, with its parameters bound (they can change the plan). */
export const explain = (sqlite: BetterSqlite3.Database, query: Statement): PlanRow[] =>
  sqlite.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as unknown[])) as PlanRow[];

export const ROWS = 1_000_000;

/**
 * Replaces the planner's statistics (sqlite_stat1) by those of a million-row table for every
 * index: `rowsPerKey` rows share each key prefix (a unique index's whole key: one row).
 */
export function writeStatistics(sqlite: BetterSqlite3.Database, rowsPerKey: number | undefined): void {
  sqlite.exec('ANALYZE'); // creates sqlite_stat1
  sqlite.exec('DELETE FROM sqlite_stat1');
  if (rowsPerKey !== undefined) {
    const indexes = sqlite
      .prepare(
        `SELECT i.name AS idx, t.name AS tbl, i."unique" AS uniq FROM sqlite_schema t, pragma_index_list(t.name) i WHERE t.type = 'table'`,
      )
      .all() as Array<{ idx: string; tbl: string; uniq: number }>;
    const insert = sqlite.prepare('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
    for (const { idx, tbl, uniq } of indexes) {
      const columns = (sqlite.prepare('SELECT count(*) AS n FROM pragma_index_info(?)').get(idx) as { n: number }).n;
      const perPrefix = Array.from({ length: columns }, (_, i) => (uniq && i === columns - 1 ? 1 : rowsPerKey));
      insert.run(tbl, idx, [ROWS, ...perPrefix].join(' '));
    }
  }
  sqlite.exec('ANALYZE sqlite_schema'); // reloads the statistics into the planner
}

/**
 * The row bound of every filter window a statement reads through (src/db/filter-window.ts):
 * the parameter of each `limit ?` that closes a subquery named `filter_window`.
 */
export function windowBounds(query: Statement, alias: string): unknown[] {
  const marker = new RegExp(`limit \\?\\) as "${alias}"`, 'g');
  return [...query.sql.matchAll(marker)].map((m) => {
    const before = query.sql.slice(0, m.index + 'limit '.length);
    return query.parameters[(before.match(/\?/g) ?? []).length];
  });
}

/** Whether a plan reads `table` by anything but its rowid (a walk or a range of one of its indexes, or the table). */
export const readsTableRange = (rows: PlanRow[], table: string): boolean =>
  rows.some(
    ({ detail }) =>
      new RegExp(`^(?:SCAN|SEARCH) ${table}(?: |$)`).test(detail) && !/USING INTEGER PRIMARY KEY/.test(detail),
  );

/**
 * An AUTO_UPDATE collection's members are whatever its filter matches now, and the filter is
 * a query language over any `metadata.<key>` (the reference's product collection filter): no index serves every filter.
 * Its page and its `total` are read in one statement over the filter's matches (through the
 * filter's index when it has one: the Catalog notes of docs/deviations.md list which), so sorting
 * those matches' narrow keys costs a constant factor of the read the total needs anyway.
 * Those pages may sort. Without statistics, the filters docs/deviations.md promises an index for
 * (a price or created_at range) must read through it; with statistics, whether a range is
 * worth its index depends on how many rows it holds, which is the planner's call. The filter
 * on metadata alone reads every product and SKU, as documented.
 */
export function exemptions(path: string, f: Fixture, withStatistics: boolean): { sort: boolean; scan: boolean } {
  const members = (id: string) => path.includes(`/product-collections/${id}/products`);
  const autoUpdate = [f.collections.price, f.collections.created, f.collections.metadata].some(members);
  return { sort: autoUpdate, scan: members(f.collections.metadata) || (withStatistics && autoUpdate) };
}
