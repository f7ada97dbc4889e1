import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { notIndexed } from '../../db/sqlite/plan-hints.js';
import type { PublicationOrderField, PublicationResult } from '../../lib/enums.js';
import type { OrderBy } from '../../lib/pagination.js';
import type { PublicationFilterColumn } from './publications-list.schemas.js';
import type { PublicationRow } from './publications.repository.js';
import type { Db } from '../../db/engine.js';

type Equal = Partial<Record<PublicationFilterColumn, string | number>>;

/** The column whose (column, created_at) index reads a created_at-ordered page: the most selective one given. */
const DRIVERS: PublicationFilterColumn[] = [
  'source_id',
  'voucher_code',
  'customer_id',
  'failure_code',
  'campaign_name',
  'voucher_type',
  'is_referral_code',
  'result',
];

/**
 * The publications the filters select, as a query over `publications` that one index serves
 * (sql/0020): ordered by created_at (or counted), the driving column's index; ordered by
 * another field (the query allows an equality on that field only), that field's index. Every
 * other term is checked on the way.
 *
 * A voucher names its publications through publication_vouchers (sql/0030: every voucher a
 * publication gave, not only its first): as the driver, its key is walked in created_at order
 * and each publication read by its seq; otherwise the row for this publication is looked up.
 */
function selected(db: Db, equal: Equal, sort: PublicationOrderField) {
  const columns = Object.keys(equal) as PublicationFilterColumn[];
  const driver = sort === 'created_at' ? DRIVERS.find((c) => columns.includes(c)) : sort;
  const code = equal.voucher_code as string | undefined;
  const byVoucher = driver === 'voucher_code' && code !== undefined;
  // Joined, the query still selects from `publications` alone; only the order names `pv`.
  let q = byVoucher
    ? (db
        .selectFrom('publication_vouchers as pv')
        .innerJoin('publications', 'publications.seq', 'pv.publication_seq')
        .where('pv.voucher_code', '=', code) as unknown as ReturnType<typeof from>)
    : from(db);
  for (const column of columns) {
    if (column === 'voucher_code') {
      if (!byVoucher) q = q.where(({ exists, selectFrom }) => exists(voucherRow(selectFrom, code as string)));
      continue;
    }
    q = q.where(
      column === driver ? `publications.${column}` : notIndexed(`publications.${column}`),
      '=',
      equal[column] as string,
    );
  }
  return { query: q, byVoucher };
}

const from = (db: Db) => db.selectFrom('publications');

/** The publication_vouchers row of this publication for the voucher: a lookup of its whole key. */
const voucherRow = (selectFrom: ExpressionBuilder<Database, 'publications'>['selectFrom'], code: string) =>
  selectFrom('publication_vouchers as pv')
    .select(sql.lit(1).as('one'))
    .where('pv.voucher_code', '=', code)
    .whereRef('pv.created_at', '=', 'publications.created_at')
    .whereRef('pv.publication_seq', '=', 'publications.seq');

/** The sort keys as the order's index holds them (the rowid last), so the walk needs no sort. */
const SORT_KEYS: Record<PublicationOrderField, Array<'created_at' | 'seq' | PublicationOrderField>> = {
  created_at: ['created_at', 'seq'],
  id: ['id'],
  voucher_code: ['voucher_code', 'created_at', 'seq'],
  tracking_id: ['tracking_id', 'created_at', 'seq'],
  customer_id: ['customer_id', 'created_at', 'seq'],
  channel: ['channel', 'created_at', 'seq'],
};

export function listPublicationPage(
  db: Db,
  q: { equal: Equal; sort: OrderBy<PublicationOrderField>; offset: number; limit: number },
): Promise<PublicationRow[]> {
  const { query: filtered, byVoucher } = selected(db, q.equal, q.sort.field);
  let query = filtered.selectAll('publications');
  if (byVoucher) {
    // created_at order, walked on the voucher's key (the same times and seqs as the publications').
    query = query
      .orderBy(sql.ref('pv.created_at'), q.sort.direction)
      .orderBy(sql.ref('pv.publication_seq'), q.sort.direction);
  } else {
    for (const key of SORT_KEYS[q.sort.field]) query = query.orderBy(`publications.${key}`, q.sort.direction);
  }
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
    const row = await db
      .selectFrom('publication_counts')
      .select((eb) => eb.fn.sum<number>('total').as('n'))
      .where('result', 'in', results as PublicationResult[])
      .executeTakeFirstOrThrow();
    return Number(row.n ?? 0);
  }
  const row = await selected(db, equal, 'created_at')
    .query.select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}
