import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

/**
 * A schema as both engines can describe it, for the parity test of sql/postgres/ against the
 * SQLite migrations. Names are compared exactly; types by class only (integer, text, real), since
 * INTEGER is bigint and TEXT is text on PostgreSQL.
 */
export interface ColumnShape {
  name: string;
  type: 'integer' | 'text' | 'real' | string;
  notNull: boolean;
  generated: boolean;
}

export interface IndexShape {
  table: string;
  unique: boolean;
  partial: boolean;
  /**
   * The columns the index is ordered by; a case-insensitive column reads `lower(x)`, a
   * nullable one `x NULLS FIRST` (where SQLite sorts NULL).
   */
  columns: string[];
}

export interface SchemaShape {
  tables: Record<string, ColumnShape[]>;
  /** Per table: the primary key's columns and each UNIQUE constraint's, sorted. */
  keys: Record<string, { primary: string[]; unique: string[][] }>;
  /** Per table: `cols -> table(cols) ON DELETE action`, sorted. */
  foreignKeys: Record<string, string[]>;
  /** Indexes created by name (not those that back a PRIMARY KEY or UNIQUE constraint). */
  indexes: Record<string, IndexShape>;
  views: string[];
  /** `table.trigger`, sorted. */
  triggers: string[];
}

const sortedRecord = <T>(entries: Array<[string, T]>): Record<string, T> =>
  Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** SQLite's type affinity rules, reduced to the classes promo uses. */
function sqliteTypeClass(declared: string): string {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (/CHAR|CLOB|TEXT/.test(t)) return 'text';
  if (/REAL|FLOA|DOUB/.test(t)) return 'real';
  return t;
}

function postgresTypeClass(type: string): string {
  if (['bigint', 'integer', 'smallint'].includes(type)) return 'integer';
  if (['text', 'character varying'].includes(type)) return 'text';
  if (['double precision', 'real'].includes(type)) return 'real';
  return type;
}

interface XColumn {
  cid: number;
  name: string;
  type: string;
  notnull: number;
  pk: number;
  hidden: number;
}
interface XIndexColumn {
  cid: number;
  name: string | null;
  key: number;
  coll: string;
}

/** The rowid's name where the table names it (`seq INTEGER PRIMARY KEY`); undefined otherwise. */
function rowidAlias(columns: XColumn[], withoutRowid: boolean): string | undefined {
  const pk = columns.filter((c) => c.pk > 0);
  return !withoutRowid && pk.length === 1 && pk[0]?.type.toUpperCase() === 'INTEGER' ? pk[0].name : undefined;
}

/**
 * An index's ordering columns as SQLite stores them: its own columns, then (for a non-unique
 * index) the row key SQLite appends, which the list queries rely on: the rowid where a column
 * names it, or the primary key's columns of a WITHOUT ROWID table.
 */
function sqliteIndexColumns(
  sqlite: BetterSqlite3.Database,
  name: string,
  unique: boolean,
  alias: string | undefined,
  nullable: Set<string>,
): string[] {
  const xinfo = sqlite.prepare(`PRAGMA index_xinfo("${name}")`).all() as XIndexColumn[];
  const own = xinfo.filter((c) => c.key === 1).map((c) => c.name as string);
  const appended = unique
    ? []
    : xinfo
        .filter((c) => c.key === 0)
        .map((c) => (c.cid === -1 ? alias : (c.name ?? undefined)))
        .filter((c): c is string => c !== undefined && !own.includes(c));
  const nocase = new Set(xinfo.filter((c) => c.coll === 'NOCASE').map((c) => c.name));
  return [...own, ...appended].map((c) => {
    const folded = nocase.has(c) ? `lower(${c})` : c;
    return nullable.has(c) ? `${folded} NULLS FIRST` : folded;
  });
}

export function sqliteShape(sqlite: BetterSqlite3.Database): SchemaShape {
  const objects = sqlite
    .prepare("SELECT type, name, tbl_name AS tbl, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    .all() as Array<{ type: string; name: string; tbl: string; sql: string | null }>;
  const shape: SchemaShape = { tables: {}, keys: {}, foreignKeys: {}, indexes: {}, views: [], triggers: [] };
  const tables = objects
    .filter((o) => o.type === 'table')
    .map((o) => o.name)
    .sort();
  for (const table of tables) {
    const columns = sqlite.prepare(`PRAGMA table_xinfo("${table}")`).all() as XColumn[];
    const withoutRowid = /WITHOUT\s+ROWID/i.test(objects.find((o) => o.name === table)?.sql ?? '');
    const alias = rowidAlias(columns, withoutRowid);
    // A primary key column counts as NOT NULL, as on PostgreSQL (SQLite lets a non-integer
    // primary key of a rowid table hold NULL, a quirk promo never uses).
    shape.tables[table] = columns.map((c) => ({
      name: c.name,
      type: sqliteTypeClass(c.type),
      notNull: c.notnull === 1 || c.pk > 0,
      generated: c.hidden >= 2,
    }));
    const list = sqlite.prepare(`PRAGMA index_list("${table}")`).all() as Array<{
      name: string;
      unique: number;
      origin: string;
      partial: number;
    }>;
    const colsOf = (index: string): string[] =>
      (sqlite.prepare(`PRAGMA index_info("${index}")`).all() as Array<{ name: string }>).map((c) => c.name);
    shape.keys[table] = {
      primary: columns
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
      unique: list
        .filter((i) => i.origin === 'u')
        .map((i) => colsOf(i.name))
        .sort(),
    };
    const fks = sqlite.prepare(`PRAGMA foreign_key_list("${table}")`).all() as Array<{
      id: number;
      table: string;
      from: string;
      to: string;
      on_delete: string;
    }>;
    const byId = new Map<number, typeof fks>();
    for (const fk of fks) byId.set(fk.id, [...(byId.get(fk.id) ?? []), fk]);
    shape.foreignKeys[table] = [...byId.values()]
      .map(
        (parts) =>
          `${parts.map((p) => p.from).join(',')} -> ${parts[0]?.table}(${parts.map((p) => p.to).join(',')}) ON DELETE ${parts[0]?.on_delete}`,
      )
      .sort();
    for (const index of list.filter((i) => i.origin === 'c')) {
      const unique = index.unique === 1;
      const nullable = new Set(shape.tables[table]?.filter((c) => !c.notNull).map((c) => c.name));
      shape.indexes[index.name] = {
        table,
        unique,
        partial: index.partial === 1,
        columns: sqliteIndexColumns(sqlite, index.name, unique, alias, nullable),
      };
    }
  }
  shape.indexes = sortedRecord(Object.entries(shape.indexes));
  shape.views = objects
    .filter((o) => o.type === 'view')
    .map((o) => o.name)
    .sort();
  shape.triggers = objects
    .filter((o) => o.type === 'trigger')
    .map((o) => `${o.tbl}.${o.name}`)
    .sort();
  return shape;
}

const ON_DELETE: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

/** The same description of a PostgreSQL database's public schema, from its catalogs. */
export async function postgresShape(client: pg.Client): Promise<SchemaShape> {
  const q = async <T>(text: string): Promise<T[]> => (await client.query(text)).rows as T[];
  const columns = await q<{ table: string; name: string; type: string; nullable: string; generated: string }>(`
    SELECT c.table_name AS table, c.column_name AS name, c.data_type AS type, c.is_nullable AS nullable, c.is_generated AS generated
    FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
    WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position`);
  const shape: SchemaShape = { tables: {}, keys: {}, foreignKeys: {}, indexes: {}, views: [], triggers: [] };
  for (const c of columns) {
    (shape.tables[c.table] ??= []).push({
      name: c.name,
      type: postgresTypeClass(c.type),
      notNull: c.nullable === 'NO',
      generated: c.generated === 'ALWAYS',
    });
  }
  shape.tables = sortedRecord(Object.entries(shape.tables));
  const constraints = await q<{
    table: string;
    type: string;
    columns: string[];
    target: string | null;
    target_columns: string[] | null;
    on_delete: string;
  }>(`
    SELECT t.relname AS table, k.contype AS type, k.confdeltype AS on_delete, f.relname AS target,
           ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i)::text[] AS columns,
           ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i)::text[] AS target_columns
    FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid LEFT JOIN pg_class f ON f.oid = k.confrelid
    WHERE t.relnamespace = 'public'::regnamespace AND k.contype IN ('p', 'u', 'f')`);
  for (const table of Object.keys(shape.tables)) {
    const mine = constraints.filter((k) => k.table === table);
    shape.keys[table] = {
      primary: mine.find((k) => k.type === 'p')?.columns ?? [],
      unique: mine
        .filter((k) => k.type === 'u')
        .map((k) => k.columns)
        .sort(),
    };
    shape.foreignKeys[table] = mine
      .filter((k) => k.type === 'f')
      .map(
        (k) =>
          `${k.columns.join(',')} -> ${k.target}(${(k.target_columns ?? []).join(',')}) ON DELETE ${ON_DELETE[k.on_delete]}`,
      )
      .sort();
  }
  const indexes = await q<{ name: string; table: string; unique: boolean; partial: boolean; columns: string[] }>(`
    SELECT c.relname AS name, t.relname AS table, i.indisunique AS unique, i.indpred IS NOT NULL AS partial,
           ARRAY(SELECT pg_get_indexdef(i.indexrelid, k, true) || CASE WHEN i.indoption[k - 1]::int & 2 = 2 THEN ' NULLS FIRST' ELSE '' END
                 FROM generate_series(1, i.indnkeyatts) AS k ORDER BY k)::text[] AS columns
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
    WHERE c.relnamespace = 'public'::regnamespace
      AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid AND k.contype IN ('p', 'u'))`);
  // pg_get_indexdef quotes a column named by a keyword ("position"): compare names bare.
  const bare = (column: string): string => column.replace(/"([a-z_][a-z0-9_]*)"/g, '$1');
  shape.indexes = sortedRecord(
    indexes.map(({ name, ...index }) => [name, { ...index, columns: index.columns.map(bare) }]),
  );
  shape.views = (
    await q<{ name: string }>("SELECT viewname AS name FROM pg_views WHERE schemaname = 'public' ORDER BY 1")
  ).map((v) => v.name);
  shape.triggers = (
    await q<{ name: string }>(`
    SELECT c.relname || '.' || t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace`)
  )
    .map((t) => t.name)
    .sort();
  return shape;
}
