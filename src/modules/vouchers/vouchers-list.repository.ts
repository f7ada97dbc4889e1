import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Db } from '../../db/engine.js';
import { notIndexed } from '../../db/sqlite/plan-hints.js';
import type { OrderBy } from '../../lib/pagination.js';
import type { VoucherRow } from './vouchers.repository.js';
import type { VoucherTable } from './vouchers.table.js';

export interface VoucherFilter {
  campaignId?: string;
  categoryId?: string;
  holderId?: string;
  createdBefore?: string;
  createdAfter?: string;
  updatedBefore?: string;
  updatedAfter?: string;
}

export type VoucherOrderField = 'created_at' | 'updated_at' | 'code';

type VoucherQuery<O> = SelectQueryBuilder<Database, 'vouchers', O>;

/**
 * The filters as WHERE terms, chosen so that one index serves the page (sql/0004, 0005,
 * 0010, 0014): the holder's (holder_id, order) when a customer is given, else the category's
 * (category_id, created_at: the service refuses other orders with a category) or the
 * campaign's (campaign_id, order), else the order's own. The other terms are checked on
 * the way (`notIndexed`), as is a date range on another field than the order's; a customer's
 * vouchers are few, so checking a campaign or category on them costs little. Without an
 * order (the count), every term may use its index.
 */
export function applyFilters<O>(
  query: VoucherQuery<O>,
  f: VoucherFilter,
  deleted: string[],
  order?: VoucherOrderField,
): VoucherQuery<O> {
  const byHolder = f.holderId !== undefined;
  const term = (column: 'campaign_id' | 'category_id', secondary: boolean) =>
    secondary && order !== undefined ? notIndexed(column) : column;
  const dateTerm = (field: 'created_at' | 'updated_at') =>
    order === undefined || order === field ? field : notIndexed(field);
  let q = query;
  if (f.holderId !== undefined) q = q.where('holder_id', '=', f.holderId);
  if (f.categoryId !== undefined) q = q.where(term('category_id', byHolder), '=', f.categoryId);
  if (f.campaignId !== undefined)
    q = q.where(term('campaign_id', byHolder || f.categoryId !== undefined), '=', f.campaignId);
  else if (deleted.length > 0)
    q = q.where((eb) => eb.or([eb('campaign_id', 'is', null), eb('campaign_id', 'not in', deleted)]));
  if (f.createdBefore !== undefined) q = q.where(dateTerm('created_at'), '<', f.createdBefore);
  if (f.createdAfter !== undefined) q = q.where(dateTerm('created_at'), '>', f.createdAfter);
  if (f.updatedBefore !== undefined) q = q.where(dateTerm('updated_at'), '<', f.updatedBefore);
  if (f.updatedAfter !== undefined) q = q.where(dateTerm('updated_at'), '>', f.updatedAfter);
  return q;
}

/** Campaigns being deleted: their vouchers (removed by a job, portion by portion) are no longer listed. */
export const deletedCampaignIds = async (db: Db): Promise<string[]> =>
  (await db.selectFrom('campaigns').select('id').where('deleted_at', 'is not', null).execute()).map((c) => c.id);

/**
 * One page of vouchers: a walk of one index alone (see applyFilters), so a deep page costs its
 * offset in index entries. No join per row: campaign names come for the page's rows only, and
 * vouchers of campaigns being deleted are excluded by id (a row read per entry only while such
 * a campaign exists, and only in lists across campaigns).
 */
export async function listVouchers(
  db: Db,
  filter: VoucherFilter,
  page: { limit: number; offset: number; order: OrderBy<VoucherOrderField> },
): Promise<VoucherRow[]> {
  const deleted = await deletedCampaignIds(db);
  if (filter.campaignId !== undefined && deleted.includes(filter.campaignId)) return [];
  const rows = await applyFilters(db.selectFrom('vouchers').selectAll(), filter, deleted, page.order.field)
    .orderBy(page.order.field, page.order.direction)
    .orderBy('seq', page.order.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return withCampaignNames(db, rows);
}

/** A page's rows with their campaigns' names, read for the page's campaigns only. */
export async function withCampaignNames(db: Db, rows: Array<Selectable<VoucherTable>>): Promise<VoucherRow[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.campaign_id === null ? [] : [r.campaign_id])))];
  const found =
    ids.length === 0 ? [] : await db.selectFrom('campaigns').select(['id', 'name']).where('id', 'in', ids).execute();
  const names = new Map(found.map((c) => [c.id, c.name]));
  return rows.map((row) => ({
    ...row,
    campaign_name: row.campaign_id === null ? null : (names.get(row.campaign_id) ?? null),
  }));
}

/** How many listed vouchers match the filters, counted on the narrowest filter's index. */
export async function countVouchers(db: Db, filter: VoucherFilter): Promise<number> {
  const deleted = await deletedCampaignIds(db);
  if (filter.campaignId !== undefined && deleted.includes(filter.campaignId)) return 0;
  const query = applyFilters(
    db.selectFrom('vouchers').select((eb) => eb.fn.countAll<number>().as('n')),
    filter,
    deleted,
  );
  return (await query.executeTakeFirstOrThrow()).n;
}

/** Vouchers that belong to no campaign (read from the campaign index's NULL range). */
export async function countStandaloneVouchers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('vouchers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('campaign_id', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
}
