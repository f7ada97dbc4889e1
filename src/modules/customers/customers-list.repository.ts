import type { RawBuilder, SelectQueryBuilder, SqlBool } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { Database } from '../../db/database.js';
import { notIndexed } from '../../db/sqlite/plan-hints.js';
import type { CustomerRow } from './customers.repository.js';
import type { Db } from '../../db/engine.js';

/** The filters that define the set a list counts (`total`). */
export interface CustomerFilters {
  email?: string;
  city?: string;
  name?: string;
  /** Members of this segment (segment_members, by its primary key). */
  segmentId?: string;
  createdBefore?: string;
  createdAfter?: string;
  updatedBefore?: string;
  updatedAfter?: string;
}

export type SortField = 'created_at' | 'updated_at' | 'source_id';

export interface CustomerPageQuery {
  filters: CustomerFilters;
  sort: { field: SortField; direction: 'asc' | 'desc' };
  /** The starting_after cursor: rows whose `field` is strictly beyond `value`. */
  cursor?: { field: 'created_at' | 'updated_at'; op: '<' | '>'; value: string };
  offset: number;
  take: number;
}

export const hasFilters = (f: CustomerFilters): boolean => Object.values(f).some((v) => v !== undefined);

type DateField = 'created_at' | 'updated_at';

/** A date range on another field than the page's order is checked during the ordered walk. */
const dateTerm = (field: DateField, order: SortField | undefined) =>
  order === undefined || order === field ? field : notIndexed(field);

/** The email, name and city filters, compared without ASCII case (SQLite: their columns are COLLATE NOCASE). */
function caselessTerms(
  db: Db,
  f: CustomerFilters,
  column: (name: 'email' | 'name' | 'address_city') => RawBuilder<unknown> | string,
): Array<RawBuilder<SqlBool>> {
  const { caselessEquals } = dialectOf(db);
  const given = [
    ['email', f.email],
    ['name', f.name],
    ['address_city', f.city],
  ] as const;
  return given.flatMap(([name, value]) => (value === undefined ? [] : [caselessEquals(column(name), value)]));
}

function applyFilters<O>(
  db: Db,
  query: SelectQueryBuilder<Database, 'customers', O>,
  f: CustomerFilters,
  order?: SortField,
): SelectQueryBuilder<Database, 'customers', O> {
  let q = query;
  for (const term of caselessTerms(db, f, (name) => name)) q = q.where(term);
  if (f.createdBefore !== undefined) q = q.where(dateTerm('created_at', order), '<', f.createdBefore);
  if (f.createdAfter !== undefined) q = q.where(dateTerm('created_at', order), '>', f.createdAfter);
  if (f.updatedBefore !== undefined) q = q.where(dateTerm('updated_at', order), '<', f.updatedBefore);
  if (f.updatedAfter !== undefined) q = q.where(dateTerm('updated_at', order), '>', f.updatedAfter);
  return q;
}

/**
 * One page. Every order ends with seq (the rowid, insertion order), which each index carries,
 * so the page is read from an index without a sort, and equal keys keep a stable order: the
 * order's own index, or an equality filter's index on (filter, order) (sql/0005).
 */
export function listCustomerPage(db: Db, q: CustomerPageQuery): Promise<CustomerRow[]> {
  if (q.filters.segmentId !== undefined) return listSegmentPage(db, q, q.filters.segmentId);
  let query = applyFilters(db, db.selectFrom('customers').selectAll(), q.filters, q.sort.field);
  if (q.cursor) query = query.where(dateTerm(q.cursor.field, q.sort.field), q.cursor.op, q.cursor.value);
  return query
    .orderBy(q.sort.field, q.sort.direction)
    .orderBy('seq', q.sort.direction)
    .limit(q.take)
    .offset(q.offset)
    .execute();
}

/**
 * The exact number of customers, kept by triggers (see sql/sqlite/0003_customers.sql): a sum,
 * as PostgreSQL keeps the count in slots (docs/postgres.md); SQLite's one row sums to itself.
 */
export const countAllCustomers = async (db: Db): Promise<number> =>
  (
    await db
      .selectFrom('customer_counts')
      .select((eb) => eb.fn.sum<number>('total').as('total'))
      .where('id', '=', 1)
      .executeTakeFirstOrThrow()
  ).total;

/** The exact number of customers matching filters; counted on the filter's index. */
export const countCustomers = async (db: Db, filters: CustomerFilters): Promise<number> => {
  if (filters.segmentId !== undefined) return countSegmentMembers(db, filters, filters.segmentId);
  const row = await applyFilters(
    db,
    db.selectFrom('customers').select((eb) => eb.fn.countAll<number>().as('n')),
    filters,
  ).executeTakeFirstOrThrow();
  return row.n;
};

/**
 * A segment's members (segment_id) with the other filters: walked on the membership row's
 * copy of the order's key (sql/0031: (segment_id, key, customer_seq)), each joined to its
 * customer by id; the date ranges and the cursor read the copies too, and email, name and
 * city are checked on the way (`+`: never a seek on their own indexes, which would sort).
 */
function segmentMembers(db: Db, f: CustomerFilters, segmentId: string, order?: SortField) {
  const term = (field: DateField) =>
    order === undefined || order === field ? (`m.${field}` as const) : notIndexed(`m.${field}`);
  let q = db
    .selectFrom('segment_members as m')
    .innerJoin('customers as c', 'c.id', 'm.customer_id')
    .where('m.segment_id', '=', segmentId);
  for (const term of caselessTerms(db, f, (name) => notIndexed(`c.${name}`))) q = q.where(term);
  if (f.createdBefore !== undefined) q = q.where(term('created_at'), '<', f.createdBefore);
  if (f.createdAfter !== undefined) q = q.where(term('created_at'), '>', f.createdAfter);
  if (f.updatedBefore !== undefined) q = q.where(term('updated_at'), '<', f.updatedBefore);
  if (f.updatedAfter !== undefined) q = q.where(term('updated_at'), '>', f.updatedAfter);
  return { q, term };
}

function listSegmentPage(db: Db, p: CustomerPageQuery, segmentId: string): Promise<CustomerRow[]> {
  const { q, term } = segmentMembers(db, p.filters, segmentId, p.sort.field);
  const paged = p.cursor ? q.where(term(p.cursor.field), p.cursor.op, p.cursor.value) : q;
  return paged
    .selectAll('c')
    .orderBy(`m.${p.sort.field}`, p.sort.direction)
    .orderBy('m.customer_seq', p.sort.direction)
    .limit(p.take)
    .offset(p.offset)
    .execute();
}

/** The members matching the filters; without a customer field among them, counted on the membership index alone. */
async function countSegmentMembers(db: Db, f: CustomerFilters, segmentId: string): Promise<number> {
  const onCustomer = f.email !== undefined || f.name !== undefined || f.city !== undefined;
  if (onCustomer)
    return (
      await segmentMembers(db, f, segmentId)
        .q.select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  let q = db.selectFrom('segment_members as m').where('m.segment_id', '=', segmentId);
  if (f.createdBefore !== undefined) q = q.where('m.created_at', '<', f.createdBefore);
  if (f.createdAfter !== undefined) q = q.where('m.created_at', '>', f.createdAfter);
  if (f.updatedBefore !== undefined)
    q = q.where(
      (f.createdBefore ?? f.createdAfter) ? notIndexed('m.updated_at') : 'm.updated_at',
      '<',
      f.updatedBefore,
    );
  if (f.updatedAfter !== undefined)
    q = q.where((f.createdBefore ?? f.createdAfter) ? notIndexed('m.updated_at') : 'm.updated_at', '>', f.updatedAfter);
  return (await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
}
