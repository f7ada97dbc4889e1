import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import type { Database } from '../../src/db/database.js';

/**
 * Reading SQLite's query plans of the statements our code runs (DESIGN.md 3: every list page is
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
export function recordingKysely(sqlite: BetterSqlite3.Database, sink: (query: CompiledQuery) => void): Kysely<Database> {
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      if (event.level === 'query') sink(event.query);
    },
  });
}

/** EXPLAIN QUERY PLAN of a statement, with its parameters bound (they can change the plan). */
export const explain = (sqlite: BetterSqlite3.Database, query: CompiledQuery): PlanRow[] =>
  sqlite.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as unknown[])) as PlanRow[];
