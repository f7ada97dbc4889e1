import { PostgresAdapter, sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from './engine.js';

/**
 * The few SQL terms that SQLite and PostgreSQL spell differently (JSON text functions, a
 * substring test), in one place: a repository asks `dialectOf(db)` for the term instead of
 * writing either spelling. JSON columns are text on both engines (docs/postgres.md); on
 * PostgreSQL the JSON functions work on a `::jsonb` cast and write the text back, so a value
 * rewritten there comes back in jsonb's spelling (readers parse it; none copies it verbatim).
 */
export interface DialectSql {
  readonly name: 'sqlite' | 'postgres';
  /** `column`'s JSON text with `valueJson` (JSON text) appended to the array under its key `key`. */
  jsonAppend(column: string, key: string, valueJson: string): RawBuilder<string>;
  /** The text or number at `path` (keys) of `column`'s JSON. */
  jsonValue<T>(column: string, path: readonly string[]): RawBuilder<T>;
  /** Whether `text` holds `part` anywhere. */
  contains(text: RawBuilder<unknown> | string, part: string): RawBuilder<SqlBool>;
  /** Whether `text` begins with `part` (characters, as the database counts them). */
  startsWith(text: RawBuilder<unknown> | string, part: string): RawBuilder<SqlBool>;
  /** Whether `text` ends with `part`; an empty `part` as SQLite's `substr(text, -0)` has it: only an empty text. */
  endsWith(text: RawBuilder<unknown> | string, part: string): RawBuilder<SqlBool>;
  /**
   * `table` read through `index`: SQLite's INDEXED BY, where its planner's guess would read the
   * table; PostgreSQL has no such clause (its planner has statistics) and reads the table.
   * A raw table reference: Kysely types none, yet compiles it as written.
   */
  indexedTable<T extends string>(table: T, index: string): T;
  /** Whether `column` matches SQLite's GLOB `pattern` (`*`, `?`, `[...]`; case-sensitive). */
  glob(column: string, pattern: string): RawBuilder<SqlBool>;
  /** A table-valued term: one row (`key`, `value`) per member of the JSON object in `column`. */
  jsonObjectEntries(column: string): RawBuilder<unknown>;
  /** `column`'s JSON text with its top-level key `key` set to `valueJson` (JSON text), added when missing. */
  jsonSet(column: string, key: string, valueJson: string): RawBuilder<string>;
  /** Whether `column`'s JSON holds an object under its top-level key `key`. */
  jsonIsObject(column: string, key: string): RawBuilder<SqlBool>;
  /**
   * Whether `column` equals `value` without ASCII case, as SQLite's NOCASE compares (customers'
   * email, name and city): SQLite, the column's own NOCASE collation; PostgreSQL, `lower()` of
   * both sides, which under the database's ctype C folds ASCII letters only, the expression its
   * indexes hold (`customers_email`, ...). `column` may be a term (notIndexed's `+column`).
   */
  caselessEquals(column: RawBuilder<unknown> | string, value: string): RawBuilder<SqlBool>;
}

/**
 * SQLite's GLOB pattern as an anchored POSIX regular expression: `*` any run, `?` one
 * character, a bracket class as it is (GLOB's `[^...]` is the regex's too), every other
 * character literal. Anchored at a fixed start, PostgreSQL reads it from a C-collation index.
 */
export function globRegex(pattern: string): string {
  let regex = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    const close = c === '[' ? pattern.indexOf(']', i + 2) : -1;
    if (close > 0) {
      regex += pattern.slice(i, close + 1).replace(/\\/g, '\\\\');
      i = close;
    } else if (c === '*') regex += '.*';
    else if (c === '?') regex += '.';
    else regex += /[\w]/.test(c) ? c : `\\${c}`;
  }
  return `${regex}$`;
}

const term = (text: RawBuilder<unknown> | string) => (typeof text === 'string' ? sql.ref(text) : text);

const sqliteSql: DialectSql = {
  name: 'sqlite',
  jsonAppend: (column, key, valueJson) =>
    sql<string>`json_insert(${sql.ref(column)}, ${`$.${key}[#]`}, json(${valueJson}))`,
  jsonValue: <T>(column: string, path: readonly string[]) =>
    sql<T>`json_extract(${sql.ref(column)}, ${`$.${path.join('.')}`})`,
  contains: (text, part) => sql<SqlBool>`instr(${term(text)}, ${part}) > 0`,
  startsWith: (text, part) => sql<SqlBool>`substr(${term(text)}, 1, length(${part})) = ${part}`,
  endsWith: (text, part) => sql<SqlBool>`substr(${term(text)}, -length(${part})) = ${part}`,
  indexedTable: <T extends string>(table: T, index: string) =>
    sql`${sql.table(table)} indexed by ${sql.id(index)}` as unknown as T,
  glob: (column, pattern) => sql<SqlBool>`${sql.ref(column)} GLOB ${pattern}`,
  jsonObjectEntries: (column) => sql`json_each(${sql.ref(column)})`,
  jsonSet: (column, key, valueJson) => sql<string>`json_set(${sql.ref(column)}, ${`$.${key}`}, json(${valueJson}))`,
  jsonIsObject: (column, key) => sql<SqlBool>`json_type(${sql.ref(column)}, ${`$.${key}`}) = 'object'`,
  caselessEquals: (column, value) => sql<SqlBool>`${term(column)} = ${value}`,
};

const postgresSql: DialectSql = {
  name: 'postgres',
  jsonAppend: (column, key, valueJson) =>
    sql<string>`jsonb_set(${sql.ref(column)}::jsonb, ${`{${key}}`}::text[],
      coalesce(${sql.ref(column)}::jsonb -> ${key}, '[]'::jsonb) || jsonb_build_array(${valueJson}::jsonb))::text`,
  jsonValue: <T>(column: string, path: readonly string[]) =>
    sql<T>`(${sql.ref(column)}::json #>> ${`{${path.join(',')}}`}::text[])`,
  contains: (text, part) => sql<SqlBool>`strpos(${term(text)}, ${part}) > 0`,
  // The part's length in characters (code points), as PostgreSQL counts them, bound as a number:
  // `length($1)` of an untyped parameter does not resolve.
  startsWith: (text, part) => sql<SqlBool>`left(${term(text)}, ${[...part].length}) = ${part}`,
  endsWith: (text, part) =>
    part === '' ? sql<SqlBool>`${term(text)} = ''` : sql<SqlBool>`right(${term(text)}, ${[...part].length}) = ${part}`,
  indexedTable: (table) => table,
  glob: (column, pattern) => sql<SqlBool>`${sql.ref(column)} ~ ${globRegex(pattern)}`,
  jsonObjectEntries: (column) => sql`json_each(${sql.ref(column)}::json)`,
  jsonSet: (column, key, valueJson) =>
    sql<string>`jsonb_set(${sql.ref(column)}::jsonb, ${`{${key}}`}::text[], ${valueJson}::jsonb)::text`,
  jsonIsObject: (column, key) => sql<SqlBool>`json_typeof(${sql.ref(column)}::json -> CAST(${key} AS text)) = 'object'`,
  caselessEquals: (column, value) => sql<SqlBool>`lower(${term(column)}) = lower(${value})`,
};

/** The spelling of the engine `db` runs on. */
export const dialectOf = (db: Db): DialectSql =>
  db.getExecutor().adapter instanceof PostgresAdapter ? postgresSql : sqliteSql;
