import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { notIndexed } from '../../db/plan-hints.js';
import type { PublicationOrderField, PublicationResult } from '../../lib/enums.js';
import type { OrderBy } from '../../lib/pagination.js';
import type { PublicationFilterColumn } from './publications-list.schemas.js';
import type { PublicationRow } from './publications.repository.js';

type Db = Kysely<Database>;
type Equal = Partial<Record<PublicationFilterColumn, string | number>>;

/** The column whose (column, created_at) index reads a created_at-ordered page: the most selective one given. */
const DRIVERS: PublicationFilterColumn[] = ['source_id', 'voucher_code', 'customer_id', 'failure_code', 'campaign_name', 'voucher_type', 'is_referral_code', 'result'];

/**
 * The filters as WHERE terms that one index serves (sql/0020): ordered by created_at (or
 * counted), the driving column's index; ordered by another field (the query allows an equality
 * on that field only), that field's index. Every other term is checked on the way.
 */
function applyFilters<O>(query: SelectQueryBuilder<Database, 'publications', O>, equal: Equal, sort: PublicationOrderField) {
  const columns = Object.keys(equal) as PublicationFilterColumn[];
  const driver = sort === 'created_at' ? DRIVERS.find((c) => columns.includes(c)) : sort;
  let q = query;
  for (const column of columns) q = q.where(column === driver ? column : notIndexed(column), '=', equal[column] as string);
  return q;
}

/** The sort keys as the order's index holds them (the rowid last), so the walk needs no sort. */
const SORT_KEYS: Record<PublicationOrderField, Array<'created_at' | 'seq' | PublicationOrderField>> = {
  created_at: ['created_at', 'seq'],
  id: ['id'],
  voucher_code: ['voucher_code', 'created_at', 'seq'],
  tracking_id: ['tracking_id', 'created_at', 'seq'],
  customer_id: ['customer_id', 'created_at', 'seq'],
  channel: ['channel', 'created_at', 'seq'],
};

export function listPublicationPage(db: Db, q: { equal: Equal; sort: OrderBy<PublicationOrderField>; offset: number; limit: number }): Promise<PublicationRow[]> {
  let query = applyFilters(db.selectFrom('publications').selectAll(), q.equal, q.sort.field);
  for (const key of SORT_KEYS[q.sort.field]) query = query.orderBy(key, q.sort.direction);
  return query.limit(q.limit).offset(q.offset).execute();
}

/**
 * The number of publications matching: from the counters (sql/0020) when at most `result`
 * restricts them, else counted on the driving column's index, so the cost grows with its
 * matches only.
 */
export async function countPublications(db: Db, equal: Equal): Promise<number> {
  const columns = Object.keys(equal);
  if (columns.every((c) => c === 'result')) {
    const results = equal.result === undefined ? ['SUCCESS', 'FAILURE'] : [equal.result as PublicationResult];
    const row = await db.selectFrom('publication_counts').select((eb) => eb.fn.sum<number>('total').as('n')).where('result', 'in', results as PublicationResult[]).executeTakeFirstOrThrow();
    return Number(row.n ?? 0);
  }
  const row = await applyFilters(db.selectFrom('publications').select((eb) => eb.fn.countAll<number>().as('n')), equal, 'created_at').executeTakeFirstOrThrow();
  return row.n;
}
