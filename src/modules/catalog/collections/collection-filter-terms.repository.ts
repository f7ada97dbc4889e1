import { sql, type SqlBool } from 'kysely';
import { dialectOf } from '../../../db/dialect.js';
import type { Db } from '../../../db/engine.js';
import { DATE_ITEM_GLOBS } from '../../../engine/conditions/index.js';
import { and, type Bool, type Item, type Source, type Sql, type ValueTerms } from './collection-filter.repository.js';

/**
 * The catalog filter's terms in each engine's spelling: one object per engine, chosen by
 * dialectOf(db); collection-filter.repository.ts and collection-sources.repository.ts write
 * everything else once. JSON columns are text on both engines (docs/postgres.md): SQLite reads
 * them with json_type/json_each, PostgreSQL with a `::json` cast and json_typeof.
 */
export interface FilterTerms extends ValueTerms {
  /**
   * One key of a JSON object column: an array's elements are its items, a scalar (JSON null
   * too) is one item, an object has none (and counts as one), a missing key has none.
   */
  jsonKey(doc: Sql, key: string): Source;
  /** A table `je` of a product's attribute names (`je.value`, a JSON array) or a SKU's (`je.key`, an object's keys). */
  attributeNames(kind: 'product' | 'sku', doc: Sql): Sql;
}

/** The terms but the substring test, which dialectOf(db) has. */
type EngineTerms = Omit<FilterTerms, 'contains'>;

const je = (name: string): Sql => sql.ref(`je.${name}`);

const sqliteTerms: EngineTerms = {
  number: (value) => sql`${value}`,
  dateMs: (value) =>
    sql`(CASE WHEN ${sql.join(
      DATE_ITEM_GLOBS.map((glob) => sql`${value} GLOB ${glob}`),
      sql` OR `,
    )} THEN CAST(round(unixepoch(${value}, 'subsec') * 1000) AS INTEGER) END)`,
  jsonKey: (doc, key) => {
    const path = `$."${key}"`;
    const type = sql`json_type(${doc}, ${path})`;
    const item: Item = {
      value: je('value'),
      number: je('value'),
      isText: sql<SqlBool>`${je('type')} = 'text'`,
      isNumber: sql<SqlBool>`${je('type')} IN ('integer', 'real')`,
      isTrue: sql<SqlBool>`${je('type')} = 'true'`,
      isFalse: sql<SqlBool>`${je('type')} = 'false'`,
    };
    return {
      // json_each over an object lists its members (text keys): those are not items.
      some: (predicate) =>
        sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${doc}, ${path}) AS je WHERE (je.key IS NULL OR typeof(je.key) = 'integer') AND ${predicate(item)})`,
      count: sql`(CASE WHEN ${type} IS NULL OR ${type} = 'null' THEN 0 WHEN ${type} = 'array' THEN json_array_length(${doc}, ${path}) ELSE 1 END)`,
      present: and([
        sql<SqlBool>`${type} IS NOT NULL`,
        sql<SqlBool>`${type} <> 'null'`,
        sql<SqlBool>`NOT (${type} = 'text' AND json_extract(${doc}, ${path}) = '')`,
        sql<SqlBool>`NOT (${type} = 'array' AND json_array_length(${doc}, ${path}) = 0)`,
      ]),
    };
  },
  attributeNames: (_kind, doc) => sql`json_each(${doc}) AS je`,
};

/** parseDateItem's forms, with a group per field (year, month, day, hour, minute, second, ms, sign, offset hours and minutes). */
const DATE_ITEM_REGEX =
  '^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\\.([0-9]{3}))?(?:Z|([+-])([0-9]{2}):([0-9]{2}))?)?$';

/**
 * A date item's ms on PostgreSQL, with SQLite's ranges and roll-over (a day past the month's
 * end, hour 24): days are counted from the month's first, which make_date takes 400 years
 * later (146,097 days, exactly) so that year 0000 is a date too, as it is to SQLite.
 */
const postgresDateMs = (value: Sql): Sql => sql`(SELECT CASE
    WHEN mo BETWEEN 1 AND 12 AND d BETWEEN 1 AND 31 AND h BETWEEN 0 AND 24 AND mi BETWEEN 0 AND 59
      AND s BETWEEN 0 AND 59 AND oh BETWEEN 0 AND 14 AND om BETWEEN 0 AND 59
    THEN ((extract(epoch FROM make_date(y + 400, mo, 1))::bigint - 146097::bigint * 86400 + (d - 1) * 86400
      + h * 3600 + mi * 60 + s) * 1000 + ms - sg * (oh * 60 + om) * 60000) END
  FROM (SELECT m[1]::int AS y, m[2]::int AS mo, m[3]::int AS d, coalesce(m[4], '0')::int AS h,
      coalesce(m[5], '0')::int AS mi, coalesce(m[6], '0')::int AS s, coalesce(m[7], '0')::int AS ms,
      CASE m[8] WHEN '-' THEN -1 ELSE 1 END AS sg, coalesce(m[9], '0')::int AS oh, coalesce(m[10], '0')::int AS om
    FROM (SELECT regexp_match(${value}, ${DATE_ITEM_REGEX}) AS m) AS matched) AS fields)`;

const postgresTerms: EngineTerms = {
  number: (value) => sql`CAST(${value} AS numeric)`,
  dateMs: postgresDateMs,
  jsonKey: (doc, key) => {
    const value = sql`(${doc}::json -> CAST(${key} AS text))`;
    const type = sql`json_typeof(${value})`;
    const itemType = sql`json_typeof(${je('value')})`;
    const scalar = sql`(${je('value')} #>> '{}')`;
    const item: Item = {
      value: sql`(CASE WHEN ${itemType} = 'string' THEN ${scalar} END)`,
      number: sql`(CASE WHEN ${itemType} = 'number' THEN ${scalar}::numeric END)`,
      isText: sql<SqlBool>`${itemType} = 'string'`,
      isNumber: sql<SqlBool>`${itemType} = 'number'`,
      isTrue: sql<SqlBool>`(${itemType} = 'boolean' AND ${scalar} = 'true')`,
      isFalse: sql<SqlBool>`(${itemType} = 'boolean' AND ${scalar} = 'false')`,
    };
    const items = sql`(CASE WHEN ${value} IS NULL OR ${type} = 'object' THEN '[]'::json
      WHEN ${type} = 'array' THEN ${value} ELSE json_build_array(${value}) END)`;
    return {
      some: (predicate: (item: Item) => Bool) =>
        sql<SqlBool>`EXISTS (SELECT 1 FROM json_array_elements(${items}) AS je(value) WHERE ${predicate(item)})`,
      count: sql`(CASE WHEN ${value} IS NULL OR ${type} = 'null' THEN 0 WHEN ${type} = 'array' THEN json_array_length(${value}) ELSE 1 END)`,
      present: sql<SqlBool>`(CASE WHEN ${value} IS NULL OR ${type} = 'null' THEN FALSE
        WHEN ${type} = 'string' THEN (${value} #>> '{}') <> ''
        WHEN ${type} = 'array' THEN json_array_length(${value}) > 0 ELSE TRUE END)`,
    };
  },
  attributeNames: (kind, doc) =>
    kind === 'product'
      ? sql`json_array_elements_text(${doc}::json) AS je(value)`
      : sql`json_object_keys(${doc}::json) AS je(key)`,
};

/** The filter's terms in the spelling of the engine `db` runs on. */
export function filterTermsOf(db: Db): FilterTerms {
  const dialect = dialectOf(db);
  return { ...(dialect.name === 'postgres' ? postgresTerms : sqliteTerms), contains: dialect.contains };
}
