import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../../db/database.js';
import { notIndexed } from '../../../db/sqlite/plan-hints.js';
import type { OrderBy } from '../../../lib/pagination.js';
import type { VoucherTable } from '../../vouchers/index.js';
import type { Db } from '../../../db/engine.js';

/**
 * Members are loyalty cards (vouchers of a LOYALTY_PROGRAM campaign); a member's customer is
 * the card's holder_id. These queries read cards. Giving a card its holder belongs to
 * publications (claimVoucher, through the ledgers' assignCardHolder).
 */
export type MemberRow = Selectable<VoucherTable> & { campaign_name: string | null };
export type MemberOrderField = 'created_at' | 'updated_at' | 'code';

const withCampaignName = (db: Db) =>
  db
    .selectFrom('vouchers as v')
    .innerJoin('campaigns as c', 'c.id', 'v.campaign_id')
    .selectAll('v')
    .select('c.name as campaign_name')
    .where('c.deleted_at', 'is', null);

/** A card of a live campaign by its code. */
export const findCardByCode = (db: Db, code: string): Promise<MemberRow | undefined> =>
  withCampaignName(db).where('v.code', '=', code).where('v.type', '=', 'LOYALTY_CARD').executeTakeFirst();

/** The customer's oldest card of the program, if any (vouchers_holder_created_at). */
export const findHeldCard = (
  db: Db,
  campaignId: string,
  holderId: string,
): Promise<{ id: string; code: string } | undefined> =>
  db
    .selectFrom('vouchers')
    .select(['id', 'code'])
    .where('holder_id', '=', holderId)
    .where('campaign_id', '=', campaignId)
    .orderBy('created_at')
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();

export interface MemberFilters {
  campaignId: string;
  holderId?: string;
  createdBefore?: string;
  createdAfter?: string;
  updatedBefore?: string;
  updatedAfter?: string;
}

export const hasMemberFilters = (f: MemberFilters): boolean =>
  Object.entries(f).some(([k, v]) => k !== 'campaignId' && v !== undefined);

type DateField = 'created_at' | 'updated_at';

/** A date range on another field than the page's order is checked during the ordered walk. */
const dateTerm = (field: DateField, order: MemberOrderField | undefined) =>
  order === undefined || order === field ? field : notIndexed(field);

function applyFilters<O>(
  query: SelectQueryBuilder<Database, 'vouchers', O>,
  f: MemberFilters,
  order?: MemberOrderField,
  byKeys = false,
) {
  // Looked up by code or id, the cards come from those unique indexes; the program is checked on each.
  let q = query.where(byKeys ? notIndexed('campaign_id') : 'campaign_id', '=', f.campaignId);
  if (f.holderId !== undefined) q = q.where('holder_id', '=', f.holderId);
  if (f.createdBefore !== undefined) q = q.where(dateTerm('created_at', order), '<', f.createdBefore);
  if (f.createdAfter !== undefined) q = q.where(dateTerm('created_at', order), '>', f.createdAfter);
  if (f.updatedBefore !== undefined) q = q.where(dateTerm('updated_at', order), '<', f.updatedBefore);
  if (f.updatedAfter !== undefined) q = q.where(dateTerm('updated_at', order), '>', f.updatedAfter);
  return q;
}

/**
 * One page of a program's cards. Each order's index (vouchers_campaign, _campaign_updated_at,
 * _campaign_code; with `customer`, the vouchers_holder_* ones) ends with seq, the tie-breaker,
 * so the page is an index walk without a sort.
 */
export const listMembers = (
  db: Db,
  filters: MemberFilters,
  page: { limit: number; offset: number; order: OrderBy<MemberOrderField> },
) =>
  applyFilters(db.selectFrom('vouchers').selectAll(), filters, page.order.field)
    .orderBy(page.order.field, page.order.direction)
    .orderBy('seq', page.order.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();

/** How many cards match the filters, counted on the narrowest filter's index. */
export async function countMembers(db: Db, filters: MemberFilters): Promise<number> {
  const row = await applyFilters(
    db.selectFrom('vouchers').select((eb) => eb.fn.countAll<number>().as('n')),
    filters,
  ).executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The program's cards among these codes and ids (at most 100 of each), through the unique
 * code and id indexes: a handful of rows, which the service orders and pages itself.
 */
export function listMembersByKeys(db: Db, filters: MemberFilters, keys: { codes?: string[]; ids?: string[] }) {
  let query = applyFilters(db.selectFrom('vouchers').selectAll(), filters, undefined, true);
  if (keys.codes !== undefined) query = query.where('code', 'in', keys.codes);
  if (keys.ids !== undefined) query = query.where('id', 'in', keys.ids);
  return query.execute();
}
