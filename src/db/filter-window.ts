import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from './database.js';
import { type DialectSql, dialectOf } from './dialect.js';
import { directReads } from './direct-reads.js';
import type { Condition, Junction } from '../engine/conditions/index.js';
import { parseIsoDate } from '../lib/dates.js';

/**
 * The bounded window a list filter no index serves is checked in (GET /v1/redemptions and
 * GET /v1/vouchers: `$is_not`, `$not_in`, `$contains`, a `junction` of `or` ...). Such a filter
 * can match one row in a million, so walking the list's index until a page is full could read
 * the whole table on the main thread, and better-sqlite3 holds every other request meanwhile.
 * The list instead walks its index (the indexed filters and the order, as without the filter)
 * over at most FILTER_WINDOW_ROWS rows, checks the filter on those, and answers the matches
 * among them: page and `total` alike. The walk is streamed, and gives the event loop a turn
 * every WINDOW_CHUNK_ROWS rows, so other requests run between its chunks (reads may run on the
 * reader connection while a stream is open on it). The answer says how many rows it examined,
 * and whether the window was cut (the `X-Promo-Filter-Window` header), so a client knows that
 * older records were not examined. The query-plan test checks that every such statement reads
 * through the window with this bound.
 */
export const FILTER_WINDOW_ROWS = 10_000;

/** Rows the walk reads between two turns of the event loop (about a millisecond of work). */
export const WINDOW_CHUNK_ROWS = 256;

/** The name of the bounded subquery, which the plan test looks for. */
export const WINDOW_ALIAS = 'filter_window';

/** Conditions no index serves, joined by their junction. */
export interface ResidualFilter {
  junction: Junction;
  conditions: Condition[];
}

/**
 * How a field reads in SQL: a column (or NULL for a field no record holds, such as a
 * redemption's user_login) and how its operands compare: as text, as 0/1 flags written
 * "true"/"false", or as ISO dates.
 */
export interface FieldSql {
  value: RawBuilder<unknown>;
  kind: 'text' | 'flag' | 'date';
}

/** What the window saw: rows examined, and the bound. */
export interface WindowScan {
  examined: number;
  limit: number;
}

type Bool = RawBuilder<SqlBool>;
const any = (parts: Bool[]): Bool => sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;

function operandOf(raw: unknown, kind: FieldSql['kind']): unknown {
  if (kind === 'flag') return raw === true || raw === 'true' ? 1 : raw === false || raw === 'false' ? 0 : raw;
  if (kind === 'date') return parseIsoDate(raw) ?? raw;
  return raw;
}

/**
 * One condition as SQL with the condition engine's string meaning: a null value is no value.
 * Lengths are the database's (characters), not JavaScript's (UTF-16 units).
 */
function conditionSql({ operator, operands }: Condition, field: FieldSql, dialect: DialectSql): Bool {
  const v = field.value;
  const ops = operands.map((o) => operandOf(o, field.kind));
  const texts = ops.map(String);
  switch (operator) {
    case '$is':
      return sql<SqlBool>`${v} = ${ops[0]}`;
    case '$is_not':
      return sql<SqlBool>`${v} IS DISTINCT FROM ${ops[0]}`;
    case '$in':
      return sql<SqlBool>`${v} IN (${sql.join(ops)})`;
    case '$not_in':
      return sql<SqlBool>`(${v} IS NULL OR ${v} NOT IN (${sql.join(ops)}))`;
    case '$has_value':
      return sql<SqlBool>`${v} IS NOT NULL`;
    case '$is_unknown':
      return sql<SqlBool>`${v} IS NULL`;
    case '$starts_with':
      return any(texts.map((s) => dialect.startsWith(v, s)));
    case '$ends_with':
      return any(texts.map((s) => dialect.endsWith(v, s)));
    case '$contains':
      return any(texts.map((s) => dialect.contains(v, s)));
    case '$not_contain':
      return sql<SqlBool>`(${v} IS NULL OR NOT ${any(texts.map((s) => dialect.contains(v, s)))})`;
    case '$after':
      return sql<SqlBool>`${v} > ${ops[0]}`;
    case '$before':
      return sql<SqlBool>`${v} < ${ops[0]}`;
    default:
      throw new Error(`${operator} has no SQL form in a filter window`);
  }
}

/** The residual filter as one boolean over the window's columns, each field read by `fieldOf`, in `db`'s spelling. */
export function residualSql(db: Kysely<Database>, filter: ResidualFilter, fieldOf: (field: string) => FieldSql): Bool {
  const dialect = dialectOf(db);
  const parts = filter.conditions.map((c) => conditionSql(c, fieldOf(c.field), dialect));
  return sql<SqlBool>`(${sql.join(parts, filter.junction === 'or' ? sql` OR ` : sql` AND `)})`;
}

/** Each window row's seq when it passes the filter, else null: one walk gives page, total and count. */
export const seqIfMatch = (residual: Bool) => sql<number | null>`CASE WHEN ${residual} THEN "seq" END`.as('match');

/**
 * The walk's rows. On a handle with a reader connection (db/sqlite/direct-reads.ts registers those),
 * streamed in chunks with a turn of the event loop between them: other requests' reads run on
 * the reader meanwhile, and writes on the writer. Without one, the stream would hold the writer
 * busy across turns, so the walk runs in one statement (still bounded by the window).
 */
export async function walkWindow(
  db: Kysely<Database>,
  walk: { stream(): AsyncIterable<{ match: number | null }>; execute(): Promise<Array<{ match: number | null }>> },
): Promise<Array<number | null>> {
  if (directReads(db) === undefined) return (await walk.execute()).map((row) => row.match);
  const matches: Array<number | null> = [];
  for await (const row of walk.stream()) {
    matches.push(row.match);
    if (matches.length % WINDOW_CHUNK_ROWS === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return matches;
}

/**
 * What one walk of the window tells (its rows in the order asked, each the rowid of a match or
 * null): the page's rowids, the matches' total, and how many rows were examined.
 */
export function windowPage(
  matches: Array<number | null>,
  page: { offset: number; limit: number },
): { seqs: number[]; total: number; scan: WindowScan } {
  const hits = matches.filter((seq): seq is number => seq !== null);
  return {
    seqs: hits.slice(page.offset, page.offset + page.limit),
    total: hits.length,
    scan: { examined: matches.length, limit: FILTER_WINDOW_ROWS },
  };
}
