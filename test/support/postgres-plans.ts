import type pg from 'pg';
import type { Statement } from './plan-server.js';

/**
 * Reading PostgreSQL's query plans of the statements our code runs: the twin of
 * test/support/query-plans.ts (docs/architecture.md, Design rules: every list page is read by
 * walking an index, never by scanning a table or sorting).
 */

/**
 * Tables small by nature, which a plan may read whole: campaigns (made one at a time by an
 * operator), the counters' slots (16 rows each, summed for a list's total), the migrations.
 */
const SMALL_TABLES = new Set([
  'campaigns',
  'customer_counts',
  'order_counts',
  'redemption_counts',
  'publication_counts',
  'schema_migrations',
]);

/** One node of `EXPLAIN (FORMAT JSON)`, as far as the check reads it. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Presorted Key'?: string[];
  Plans?: PlanNode[];
}

/** Every node of a plan, the root first. */
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** Each table's unique keys whose columns are all NOT NULL (a key that holds one row per value). */
export type UniqueKeys = ReadonlyMap<string, ReadonlyArray<readonly string[]>>;

export async function uniqueKeys(pool: pg.Pool): Promise<UniqueKeys> {
  const { rows } = await pool.query<{ table: string; columns: string[] }>(`
    SELECT t.relname AS table, array_agg(a.attname::text ORDER BY k.n) AS columns
      FROM pg_index i
      JOIN pg_class t ON t.oid = i.indrelid
      CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
     WHERE i.indisunique AND i.indpred IS NULL AND t.relnamespace = 'public'::regnamespace
     GROUP BY i.indexrelid, i.indnkeyatts, t.relname
    HAVING bool_and(a.attnotnull) AND count(*) = i.indnkeyatts`);
  const keys = new Map<string, string[][]>();
  for (const { table, columns } of rows) keys.set(table, [...(keys.get(table) ?? []), columns]);
  return keys;
}

const bareColumn = (key: string): string => (key.split('.').pop() ?? key).replaceAll('"', '');

/**
 * An Incremental Sort whose presorted part is a unique key of NOT NULL columns of the table
 * beneath it sorts groups of one row: the index walk gives the whole order (PostgreSQL does not
 * drop the tie-breaker after a unique column, as SQLite does: `order by code, seq` on vouchers).
 */
function sortsSingleRows(node: PlanNode, keys: UniqueKeys): boolean {
  const table = nodesOf(node).find((n) => n['Relation Name'] !== undefined)?.['Relation Name'];
  const presorted = new Set((node['Presorted Key'] ?? []).map(bareColumn));
  return (keys.get(table ?? '') ?? []).some((key) => key.every((column) => presorted.has(column)));
}

/**
 * What is wrong with a plan, one entry per bad node: a Sort (an Incremental Sort too: it sorts
 * the right part of the order, SQLite's `TEMP B-TREE FOR RIGHT PART OF ORDER BY`, unless its
 * groups are single rows) or a Seq Scan of a table that is not small by nature.
 */
export function postgresPlanProblems(
  plan: PlanNode,
  keys: UniqueKeys,
  allowed = { sort: false, scan: false },
): string[] {
  return nodesOf(plan).flatMap((node) => {
    const type = node['Node Type'];
    if (type === 'Incremental Sort' && sortsSingleRows(node, keys)) return [];
    if (type === 'Sort' || type === 'Incremental Sort') return allowed.sort ? [] : [type];
    if (type !== 'Seq Scan' || allowed.scan) return [];
    const table = node['Relation Name'] ?? '?';
    return SMALL_TABLES.has(table) ? [] : [`Seq Scan on ${table}`];
  });
}

/** A named statement (db/postgres/named-statements.ts): pg's query config `{ name, text, values }`. */
const isNamed = (query: unknown): query is { text: string; values: unknown[] } =>
  typeof query === 'object' && query !== null && typeof (query as { name?: unknown }).name === 'string';

/**
 * Hands `sink` every statement any client of `pool` sends from now on, as sent: the text and
 * values Kysely (builders and query templates alike) passes to pg. Recorded at the driver, so it
 * sees whatever plugins the engine's Kysely applies.
 */
export function recordPool(pool: pg.Pool, sink: (statement: Statement) => void): void {
  const recorded = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (recorded.has(client)) return;
    recorded.add(client);
    const query = client.query.bind(client) as (text: unknown, values?: unknown) => unknown;
    client.query = ((text: unknown, values?: unknown) => {
      if (typeof text === 'string') sink({ sql: text, parameters: Array.isArray(values) ? values : [] });
      else if (isNamed(text)) sink({ sql: text.text, parameters: text.values });
      return query(text, values);
    }) as typeof client.query;
  });
}

/** A statement EXPLAIN can plan: SET, BEGIN and the like have no plan. */
export const hasPlan = (query: Statement): boolean =>
  /^\s*(?:\(?\s*select|insert|update|delete|with)\b/i.test(query.sql);

/**
 * The planner's settings a profile reads the plans under. `enable_seqscan` and `enable_sort`
 * off do not forbid either: they price them out of every plan that has another way, so a Seq
 * Scan or a Sort that remains is one no index can replace.
 */
export type PlannerSettings = Record<string, 'on' | 'off'>;

/** EXPLAIN (FORMAT JSON) of a statement with its parameters bound, under `settings`, on one connection of `pool`. */
export async function explainOnPostgres(pool: pg.Pool, query: Statement, settings: PlannerSettings): Promise<PlanNode> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const [name, value] of Object.entries(settings)) await client.query(`SET LOCAL ${name} = ${value}`);
    const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `EXPLAIN (FORMAT JSON) ${query.sql}`,
      query.parameters as unknown[],
    );
    return (rows[0]?.['QUERY PLAN'][0] as { Plan: PlanNode }).Plan;
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

/**
 * The row bound of every filter window a statement reads through (the filter window module):
 * the value of each `limit $n` that closes a subquery named `alias`.
 */
export const postgresWindowBounds = (query: Statement, alias: string): unknown[] =>
  [...query.sql.matchAll(new RegExp(`limit \\$(\\d+)\\) as "${alias}"`, 'g'))].map(
    (m) => query.parameters[Number(m[1]) - 1],
  );

/** Whether a plan reads `table` by anything but its primary key (a page's rows fetched by seq). */
export const readsTableRangeOnPostgres = (plan: PlanNode, table: string): boolean =>
  nodesOf(plan).some(
    (node) =>
      node['Relation Name'] === table &&
      /Scan$/.test(node['Node Type']) &&
      !(node['Index Name'] ?? '').endsWith('_pkey'),
  );
