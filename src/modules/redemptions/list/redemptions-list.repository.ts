import { CompiledQuery, sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../../db/database.js';
import {
  FILTER_WINDOW_ROWS,
  residualSql,
  seqIfMatch,
  walkWindow,
  WINDOW_ALIAS,
  windowPage,
  type ResidualFilter,
  type WindowScan,
} from '../../../db/filter-window.js';
import { notIndexed } from '../../../db/sqlite/plan-hints.js';
import {
  REDEMPTION_OBJECTS,
  REDEMPTION_RESULTS,
  type RedemptionObjectName,
  type RedemptionResult,
} from '../../../lib/enums.js';
import type { OrderBy } from '../../../lib/pagination.js';
import { redemptionField, type RedemptionFilterColumn } from './redemptions-list.filters.js';
import type { RedemptionOrderField } from './redemptions-list.schemas.js';
import type { RedemptionRow } from '../redemptions.presenter.js';
import type { Db } from '../../../db/engine.js';
import { dialectOf } from '../../../db/dialect.js';

type RedemptionQuery<O> = SelectQueryBuilder<Database, 'redemptions', O>;

/** The set a list counts (`total`): column equalities (null: IS NULL) and a created_at range. */
export interface RedemptionFilters {
  equal: Partial<Record<RedemptionFilterColumn, string | null>>;
  createdBefore?: string;
  createdAfter?: string;
}

export interface RedemptionPageQuery {
  filters: RedemptionFilters;
  sort: OrderBy<RedemptionOrderField>;
  offset: number;
  limit: number;
}

/**
 * The column whose index (column, created_at) reads a created_at-ordered page: the most
 * selective one given. failure_code's index holds failures only; result and object have an
 * index for their rare value only (sql/0033), so they drive only when they name it.
 */
const DRIVERS: RedemptionFilterColumn[] = [
  'voucher_code',
  'customer_id',
  'related_object_id',
  'parent_id',
  'related_object_parent_id',
  'campaign_name',
  'failure_code',
  'object',
  'result',
];

/** The rare value of each column indexed by that value alone (sql/0033): its partial index. */
const RARE = { result: 'FAILURE', object: 'redemption_rollback' } as const;
const rareValueOf = (column: RedemptionFilterColumn): string | undefined =>
  column === 'result' || column === 'object' ? RARE[column] : undefined;

/** Whether the column's index serves this value. */
const servedByIndex = (column: RedemptionFilterColumn, value: string | null | undefined): boolean =>
  rareValueOf(column) === undefined || rareValueOf(column) === value;

/** The most selective filter column whose index serves its value, if any. */
const driverOf = (f: RedemptionFilters): RedemptionFilterColumn | undefined =>
  DRIVERS.find((c) => c in f.equal && servedByIndex(c, f.equal[c]));

/**
 * A term's operand. result and object are compared with a literal (an enum value the query was
 * checked against): a bound parameter would hide from the planner that the term implies a
 * partial index's WHERE.
 */
const operandOf = (column: RedemptionFilterColumn, value: string) =>
  rareValueOf(column) === undefined ? value : sql.lit(value);

/**
 * The filters as WHERE terms, so that one index serves the page (sql/0015): ordered by
 * created_at, the driving column's (column, created_at) index, where the range bounds the
 * walk too; ordered by another field (the service allows an equality on that field only), that
 * field's index. Every other term is checked on the way (`notIndexed`), so statistics never tip
 * the planner into reading every match and sorting. Without an order (the count), every term
 * may use its index.
 */
function applyFilters<O>(
  query: RedemptionQuery<O>,
  f: RedemptionFilters,
  sort?: RedemptionOrderField,
): RedemptionQuery<O> {
  const columns = Object.keys(f.equal) as RedemptionFilterColumn[];
  const driver = sort === undefined ? undefined : sort === 'created_at' ? driverOf(f) : sort;
  const term = (column: RedemptionFilterColumn | 'created_at') =>
    sort === undefined || column === driver ? column : notIndexed(column);
  let q = query;
  for (const column of columns) {
    const value = f.equal[column];
    q = value === null ? q.where(term(column), 'is', null) : q.where(term(column), '=', operandOf(column, value!));
  }
  const dateTerm = sort === 'created_at' || sort === undefined ? 'created_at' : notIndexed('created_at');
  if (f.createdBefore !== undefined) q = q.where(dateTerm, '<', f.createdBefore);
  if (f.createdAfter !== undefined) q = q.where(dateTerm, '>', f.createdAfter);
  return q;
}

/** The sort keys, as the order's index holds them (the rowid last), so the walk needs no sort. */
const SORT_KEYS: Record<RedemptionOrderField, Array<'created_at' | 'seq' | RedemptionOrderField>> = {
  created_at: ['created_at', 'seq'],
  id: ['id'],
  voucher_code: ['voucher_code', 'created_at', 'seq'],
  tracking_id: ['tracking_id', 'created_at', 'seq'],
  customer_id: ['customer_id', 'created_at', 'seq'],
};

/** One page, in the order asked, ties broken by insertion. */
export function listRedemptionPage(db: Db, q: RedemptionPageQuery): Promise<RedemptionRow[]> {
  let query = applyFilters(db.selectFrom('redemptions').selectAll(), q.filters, q.sort.field);
  for (const key of SORT_KEYS[q.sort.field]) query = query.orderBy(key, q.sort.direction);
  return query.limit(q.limit).offset(q.offset).execute();
}

/** Each driving column's index (sql/0015; result and object: sql/0033), for the count below. */
const INDEX_OF: Record<RedemptionFilterColumn, string> = {
  voucher_code: 'redemptions_voucher_code',
  customer_id: 'redemptions_customer',
  related_object_id: 'redemptions_related_object',
  parent_id: 'redemptions_parent',
  related_object_parent_id: 'redemptions_related_parent',
  campaign_name: 'redemptions_campaign_name',
  failure_code: 'redemptions_failure_code',
  object: 'redemptions_rollbacks',
  result: 'redemptions_failures',
};

/** The objects and results a count restricted by at most those two columns takes in. */
const countedKinds = (f: RedemptionFilters) => ({
  objects: f.equal.object != null ? [f.equal.object as RedemptionObjectName] : REDEMPTION_OBJECTS,
  results: f.equal.result != null ? [f.equal.result as RedemptionResult] : REDEMPTION_RESULTS,
});

/** The counters' sum (sql/0018) for at most an object and a result. */
async function countFromCounters(db: Db, f: RedemptionFilters): Promise<number> {
  const { objects, results } = countedKinds(f);
  const row = await db
    .selectFrom('redemption_counts')
    .select((eb) => eb.fn.sum<number>('total').as('n'))
    .where('object', 'in', objects)
    .where('result', 'in', results)
    .executeTakeFirstOrThrow();
  return Number(row.n ?? 0);
}

/**
 * The records of a created_at range, restricted by at most an object and a result. Four
 * counts that read indexes alone, in one statement: the range on redemptions_created_at, on
 * the partial indexes of failures and of rollback records (sql/0033), and the failed rollback
 * records among the latter; each (object, result) cell follows from them. Counting the common
 * value itself would look every record of the range up in the table.
 */
async function countInRange(db: Db, f: RedemptionFilters): Promise<number> {
  const inRange = (rare: Partial<Record<'result' | 'object', string>>) => {
    let q = db.selectFrom('redemptions').select((eb) => eb.fn.countAll<number>().as('n'));
    for (const [column, value] of Object.entries(rare))
      q = q.where(sql<SqlBool>`${sql.ref(column)} = ${sql.lit(value)}`);
    if (f.createdBefore !== undefined) q = q.where('created_at', '<', f.createdBefore);
    if (f.createdAfter !== undefined) q = q.where('created_at', '>', f.createdAfter);
    return q;
  };
  const counted = await db
    .selectNoFrom([
      inRange({}).as('all'),
      inRange({ result: RARE.result }).as('failed'),
      inRange({ object: RARE.object }).as('rollbacks'),
      inRange({ result: RARE.result, object: RARE.object }).as('both'),
    ])
    .executeTakeFirstOrThrow();
  const [all, failed, rollbacks, both] = [counted.all, counted.failed, counted.rollbacks, counted.both].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  const cells: Record<RedemptionObjectName, Record<RedemptionResult, number>> = {
    redemption_rollback: { FAILURE: both, SUCCESS: rollbacks - both },
    redemption: { FAILURE: failed - both, SUCCESS: all - failed - rollbacks + both },
  };
  const { objects, results } = countedKinds(f);
  let total = 0;
  for (const object of objects) for (const result of results) total += cells[object][result];
  return total;
}

/**
 * The exact number of records matching the filters. Restricted by object and result at most,
 * it is read from the counters the triggers keep (sql/0018), or with a date range from four
 * index-only counts of the range (countInRange); otherwise counted on the
 * filter's index, so its cost grows with the matching records only. One column with a date
 * range is a covering walk of that column's index. With several columns no index covers the
 * count, and a planner told that every key matches the whole table rightly prefers reading the
 * table to looking each match up; the count then names the driving column's index (INDEXED
 * BY, db/dialect.ts indexedTable), so a count never reads more than its most selective
 * filter's matches.
 */
export async function countRedemptions(db: Db, f: RedemptionFilters): Promise<number> {
  const columns = Object.keys(f.equal) as RedemptionFilterColumn[];
  const dated = f.createdBefore !== undefined || f.createdAfter !== undefined;
  if (columns.every((c) => c === 'object' || c === 'result'))
    return dated ? countInRange(db, f) : countFromCounters(db, f);
  const driver = driverOf(f);
  const from =
    columns.length < 2 || driver === undefined
      ? 'redemptions'
      : dialectOf(db).indexedTable('redemptions', INDEX_OF[driver]);
  const query = applyFilters(
    db.selectFrom(from).select((eb) => eb.fn.countAll<number>().as('n')),
    f,
  );
  return (await query.executeTakeFirst())?.n ?? 0;
}

/** What the window carries: the sort keys, the rowid and every column a filter names. */
const WINDOW_COLUMNS = [
  'seq',
  'id',
  'created_at',
  'tracking_id',
  'voucher_code',
  'customer_id',
  'related_object_id',
  'related_object_parent_id',
  'parent_id',
  'failure_code',
  'result',
  'object',
  'campaign_name',
] as const;

/**
 * The first FILTER_WINDOW_ROWS records of the list in the order asked, read as the page
 * without a residual filter reads them (the indexed filters' walk, db/filter-window.ts).
 */
function filterWindow(db: Db, f: RedemptionFilters, sort: OrderBy<RedemptionOrderField>) {
  let window = applyFilters(db.selectFrom('redemptions').select(WINDOW_COLUMNS), f, sort.field);
  for (const key of SORT_KEYS[sort.field]) window = window.orderBy(key, sort.direction);
  return window.limit(FILTER_WINDOW_ROWS).as(WINDOW_ALIAS);
}

/**
 * One walk of the window: the page of its records that pass the residual filter, in the order
 * asked, their total, and the rows examined; then the page's rows by rowid.
 */
export async function readRedemptionWindow(
  db: Db,
  q: RedemptionPageQuery,
  residual: ResidualFilter,
): Promise<{ rows: RedemptionRow[]; total: number; scan: WindowScan }> {
  let walk = db
    .selectFrom(filterWindow(db, q.filters, q.sort))
    .select(seqIfMatch(residualSql(db, residual, redemptionField)));
  for (const key of SORT_KEYS[q.sort.field]) walk = walk.orderBy(key, q.sort.direction);
  const { seqs, total, scan } = windowPage(await walkWindow(db, walk), q);
  if (seqs.length === 0) return { rows: [], total, scan };
  const rows = new Map(
    (await db.selectFrom('redemptions').selectAll().where('seq', 'in', seqs).execute()).map((row) => [row.seq, row]),
  );
  // Other requests ran between the walk's chunks: a record erased meanwhile is left out.
  return { rows: seqs.flatMap((seq) => rows.get(seq) ?? []), total, scan };
}
