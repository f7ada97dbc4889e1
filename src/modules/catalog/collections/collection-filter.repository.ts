import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { CompiledFilter, Scalar, Test, TimeRange } from '../../../engine/conditions/index.js';

/**
 * Translates a compiled condition filter (src/engine/conditions) into a WHERE clause over the
 * products or the SKUs table, with the same meaning as the pure evaluator: a value's items,
 * "some item passes", no type coercion, dates as bounds fixed by the caller's clock. The
 * side-by-side tests run both on the same cases.
 *
 * Raw SQL (Kysely's `sql` tag, every value bound as a parameter): the translation needs JSON
 * functions and table-valued JSON readers, which the builder cannot express. The terms SQLite
 * and PostgreSQL spell differently come from FilterTerms (collection-filter-terms.repository.ts); the
 * rest is written once for both. Indexed columns (price, created_at, id, source_id, name) are
 * compared directly so the planner can use their indexes.
 */
export type Sql = RawBuilder<unknown>;
export type Bool = RawBuilder<SqlBool>;

export const TRUE: Bool = sql<SqlBool>`TRUE`;
export const FALSE: Bool = sql<SqlBool>`FALSE`;
/** No text, no number: typed, so PostgreSQL can compare it with text or numbers and find none. */
export const NO_TEXT: Sql = sql`CAST(NULL AS text)`;
export const NO_NUMBER: Sql = sql`CAST(NULL AS numeric)`;
export const or = (parts: Bool[]): Bool => (parts.length === 0 ? FALSE : sql<SqlBool>`(${sql.join(parts, sql` OR `)})`);
export const and = (parts: Bool[]): Bool =>
  parts.length === 0 ? TRUE : sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
export const not = (part: Bool): Bool => sql<SqlBool>`(NOT ${part})`;

/**
 * One item of a field value, with SQL telling what JSON type it is. Its text and its number
 * are apart (NO_TEXT, NO_NUMBER when it has none): PostgreSQL checks the operand types of every
 * comparison, even one an `isText` guard rules out.
 */
export interface Item {
  value: Sql;
  number: Sql;
  isText: Bool;
  isNumber: Bool;
  isTrue: Bool;
  isFalse: Bool;
  /** Stored as canonical ISO text (created_at, updated_at): compare as strings, on the index. */
  canonicalDate?: boolean;
  /** A text column with an index: a prefix also becomes a range the index can serve. */
  indexedText?: boolean;
}

/**
 * The terms SQLite and PostgreSQL spell differently (collection-filter-terms.repository.ts): a substring
 * test, an item's text as ms since the epoch when it is a date in one of DATE_ITEM_GLOBS'
 * forms (NULL otherwise, with SQLite's date functions' ranges: parseDateItem), and a number
 * operand (PostgreSQL would take a bare parameter beside an integer column as an integer).
 */
export interface ValueTerms {
  contains(value: Sql, part: string): Bool;
  dateMs(value: Sql): Sql;
  number(value: number): Sql;
}

/** Where a field's items come from, and how to count them and tell if the value is present. */
export interface Source {
  some(predicate: (item: Item) => Bool): Bool;
  count: Sql;
  present: Bool;
}

export const textItem = (value: Sql, notNull: Bool): Item => ({
  value,
  number: NO_NUMBER,
  isText: notNull,
  isNumber: FALSE,
  isTrue: FALSE,
  isFalse: FALSE,
});

const equalsItem = (terms: ValueTerms, item: Item, values: Scalar[]): Bool => {
  const strings = values.filter((v): v is string => typeof v === 'string');
  const numbers = values.filter((v): v is number => typeof v === 'number');
  const parts: Bool[] = [];
  if (strings.length > 0) parts.push(and([item.isText, sql<SqlBool>`${item.value} IN (${sql.join(strings)})`]));
  if (numbers.length > 0)
    parts.push(and([item.isNumber, sql<SqlBool>`${item.number} IN (${sql.join(numbers.map(terms.number))})`]));
  if (values.includes(true)) parts.push(item.isTrue);
  if (values.includes(false)) parts.push(item.isFalse);
  return or(parts);
};

/** Characters as both engines count them (code points). */
const charCount = (s: string): number => [...s].length;

const startsWithText = (v: Sql, s: string): Bool => sql<SqlBool>`substr(${v}, 1, ${charCount(s)}) = ${s}`;
// The length first: SQLite's substr counts a start below 1 from the end.
const endsWithText = (v: Sql, s: string): Bool =>
  sql<SqlBool>`(length(${v}) >= ${charCount(s)} AND substr(${v}, length(${v}) - ${charCount(s) - 1}) = ${s})`;

/**
 * The first string after every string that starts with `prefix`, in SQLite's BINARY order
 * (code points): the prefix with its last character raised by one. Undefined when that would
 * leave Unicode or land on a surrogate.
 */
function prefixEnd(prefix: string): string | undefined {
  const chars = [...prefix];
  const last = (chars.pop() as string).codePointAt(0) as number;
  const next = last + 1;
  if (next > 0x10ffff || (next >= 0xd800 && next <= 0xdfff)) return undefined;
  return chars.join('') + String.fromCodePoint(next);
}

/** A prefix test; on an indexed column it is also a range, so the planner can seek to it. */
function startsWith(item: Item, prefix: string): Bool {
  const exact = startsWithText(item.value, prefix);
  const end = item.indexedText ? prefixEnd(prefix) : undefined;
  return end === undefined
    ? exact
    : and([sql<SqlBool>`${item.value} >= ${prefix}`, sql<SqlBool>`${item.value} < ${end}`, exact]);
}

type TextMode = 'contains' | 'starts_with' | 'ends_with';

function textTest(terms: ValueTerms, item: Item, mode: TextMode, s: string): Bool {
  if (mode === 'starts_with') return startsWith(item, s);
  return mode === 'ends_with' ? endsWithText(item.value, s) : terms.contains(item.value, s);
}

const textItemTest = (terms: ValueTerms, item: Item, mode: TextMode, values: string[]): Bool =>
  and([item.isText, or(values.map((s) => textTest(terms, item, mode, s)))]);

const CMP = { '>': sql`>`, '<': sql`<`, '>=': sql`>=`, '<=': sql`<=`, '=': sql`=` } as const;

/** The earliest and latest instants an ISO string with a 4-digit year can hold. */
const MIN_ISO_MS = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_ISO_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** A time range on canonical ISO text: plain string comparisons, which an index can serve. */
function canonicalRange(value: Sql, r: TimeRange): Bool {
  const parts: Bool[] = [sql<SqlBool>`${value} IS NOT NULL`];
  if (r.from !== undefined) {
    if (r.from > MAX_ISO_MS) return FALSE;
    if (r.from >= MIN_ISO_MS)
      parts.push(sql<SqlBool>`${value} ${r.fromInclusive ? CMP['>='] : CMP['>']} ${new Date(r.from).toISOString()}`);
  }
  if (r.to !== undefined) {
    if (r.to < MIN_ISO_MS) return FALSE;
    if (r.to <= MAX_ISO_MS)
      parts.push(sql<SqlBool>`${value} ${r.toInclusive ? CMP['<='] : CMP['<']} ${new Date(r.to).toISOString()}`);
  }
  return and(parts);
}

/** A time range on any text: only the date forms of DATE_ITEM_GLOBS count, compared in ms. */
function textDateRange(terms: ValueTerms, item: Item, r: TimeRange): Bool {
  const ms = terms.dateMs(item.value);
  const parts: Bool[] = [item.isText, sql<SqlBool>`${ms} IS NOT NULL`];
  if (r.from !== undefined) parts.push(sql<SqlBool>`${ms} ${r.fromInclusive ? CMP['>='] : CMP['>']} ${r.from}`);
  if (r.to !== undefined) parts.push(sql<SqlBool>`${ms} ${r.toInclusive ? CMP['<='] : CMP['<']} ${r.to}`);
  return and(parts);
}

function testSql(terms: ValueTerms, test: Test, source: Source): Bool {
  switch (test.type) {
    case 'equals': {
      const hit = source.some((item) => equalsItem(terms, item, test.values));
      return test.negate ? not(hit) : hit;
    }
    case 'text': {
      const hit = source.some((item) => textItemTest(terms, item, test.mode, test.values));
      return test.negate ? not(hit) : hit;
    }
    case 'compare':
      return source.some((item) =>
        and([item.isNumber, sql<SqlBool>`${item.number} ${CMP[test.cmp]} ${terms.number(test.value)}`]),
      );
    case 'time':
      return source.some((item) =>
        item.canonicalDate ? canonicalRange(item.value, test.range) : textDateRange(terms, item, test.range),
      );
    case 'count':
      return sql<SqlBool>`${source.count} ${CMP[test.cmp]} ${test.value}`;
    case 'present':
      return test.negate ? not(source.present) : source.present;
  }
}

/** Joins the conditions of a filter, each translated against its field's source. */
export function filterSql(filter: CompiledFilter, sourceOf: (field: string) => Source, terms: ValueTerms): Bool {
  const parts = filter.conditions.map((c) => testSql(terms, c.test, sourceOf(c.field)));
  return filter.junction === 'and' ? and(parts) : or(parts);
}
