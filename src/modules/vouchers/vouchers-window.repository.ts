import type { Db } from '../../db/engine.js';
import { sql } from 'kysely';
import {
  FILTER_WINDOW_ROWS,
  residualSql,
  seqIfMatch,
  walkWindow,
  WINDOW_ALIAS,
  windowPage,
  type FieldSql,
  type ResidualFilter,
  type WindowScan,
} from '../../db/filter-window.js';
import type { OrderBy } from '../../lib/pagination.js';
import { VOUCHER_FILTER_COLUMNS } from './voucher-list.filters.js';
import {
  applyFilters,
  deletedCampaignIds,
  withCampaignNames,
  type VoucherFilter,
  type VoucherOrderField,
} from './vouchers-list.repository.js';
import type { VoucherRow } from './vouchers.repository.js';

/** What the window carries: the sort keys, the rowid and every column a filter names. */
const WINDOW_COLUMNS = [
  'seq',
  'id',
  'code',
  'campaign_id',
  'category_id',
  'holder_id',
  'type',
  'active',
  'is_referral_code',
  'created_at',
  'updated_at',
  'start_date',
  'expiration_date',
] as const;

const fieldOf = (field: string): FieldSql => {
  const { column, kind } = VOUCHER_FILTER_COLUMNS[field] as { column: string; kind: FieldSql['kind'] };
  return { value: sql.ref(column), kind };
};

/**
 * The first FILTER_WINDOW_ROWS vouchers of the list in the order asked, read as the page
 * without a residual filter reads them (the indexed filters' walk, db/filter-window.ts).
 */
function filterWindow(db: Db, f: VoucherFilter, deleted: string[], order: OrderBy<VoucherOrderField>) {
  return applyFilters(db.selectFrom('vouchers').select(WINDOW_COLUMNS), f, deleted, order.field)
    .orderBy(order.field, order.direction)
    .orderBy('seq', order.direction)
    .limit(FILTER_WINDOW_ROWS)
    .as(WINDOW_ALIAS);
}

export interface WindowPage {
  limit: number;
  offset: number;
  order: OrderBy<VoucherOrderField>;
}

/**
 * One walk of the window: the page of its vouchers that pass the residual filter, in the order
 * asked, their total, and the rows examined; then the page's rows by rowid.
 */
export async function readVoucherWindow(
  db: Db,
  filter: VoucherFilter,
  page: WindowPage,
  residual: ResidualFilter,
): Promise<{ rows: VoucherRow[]; total: number; scan: WindowScan }> {
  const deleted = await deletedCampaignIds(db);
  if (filter.campaignId !== undefined && deleted.includes(filter.campaignId))
    return { rows: [], total: 0, scan: { examined: 0, limit: FILTER_WINDOW_ROWS } };
  const walk = db
    .selectFrom(filterWindow(db, filter, deleted, page.order))
    .select(seqIfMatch(residualSql(db, residual, fieldOf)))
    .orderBy(page.order.field, page.order.direction)
    .orderBy('seq', page.order.direction);
  const { seqs, total, scan } = windowPage(await walkWindow(db, walk), page);
  if (seqs.length === 0) return { rows: [], total, scan };
  const rows = new Map(
    (await db.selectFrom('vouchers').selectAll().where('seq', 'in', seqs).execute()).map((row) => [row.seq, row]),
  );
  // Other requests ran between the walk's chunks: a voucher deleted meanwhile is left out.
  return {
    rows: await withCampaignNames(
      db,
      seqs.flatMap((seq) => rows.get(seq) ?? []),
    ),
    total,
    scan,
  };
}
