import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { notFound } from '../../../lib/errors.js';
import { listEnvelope, type OrderBy } from '../../../lib/pagination.js';
import { categoriesById } from '../../categories/index.js';
import { findSimpleCustomer } from '../../customers/index.js';
import { assignmentHolders, presentVoucher, type VoucherView } from '../../vouchers/index.js';
import { assignmentsOfObjects } from '../../validation-rules/index.js';
import type { MembersListQuery } from './members.schemas.js';
import * as repo from './members.repository.js';
import { findProgram } from '../programs/programs.service.js';

type ReadDeps = { db: Kysely<Database> };

/** A program's cards all carry its name. */
const withNames = (name: string, rows: Array<Omit<repo.MemberRow, 'campaign_name'>>): repo.MemberRow[] =>
  rows.map((row) => ({ ...row, campaign_name: name }));

async function present(db: Kysely<Database>, rows: repo.MemberRow[]): Promise<VoucherView[]> {
  const categories = await categoriesById(
    db,
    rows.map((r) => r.category_id),
  );
  const assignments = await assignmentsOfObjects(db, assignmentHolders(rows));
  return rows.map((row) => presentVoucher(row, categories, assignments));
}

/** A lookup by code or ids holds a handful of rows: ordered (then seq) and paged here. */
function orderAndPage(
  rows: repo.MemberRow[],
  order: OrderBy<repo.MemberOrderField>,
  offset: number,
  limit: number,
): repo.MemberRow[] {
  const sign = order.direction === 'asc' ? 1 : -1;
  const key = (r: repo.MemberRow) => r[order.field] ?? '';
  const sorted = [...rows].sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.seq - b.seq));
  return sorted.slice(offset, offset + limit);
}

/**
 * GET /v1/loyalties/{id or name}/members (list-members): the program's cards, newest first
 * unless ordered, with `total`. `customer` (id or source_id; unknown: an empty list) keeps the
 * cards it holds; date bounds are strict; `code` and `ids` look cards up by those keys.
 */
export async function listMembers(deps: ReadDeps, programRef: string, query: MembersListQuery) {
  const program = await findProgram(deps, programRef);
  let holderId: string | undefined;
  if (query.customer !== undefined) {
    holderId = (await findSimpleCustomer(deps.db, query.customer))?.id;
    if (holderId === undefined) return listEnvelope('vouchers', [] as VoucherView[], { total: 0 });
  }
  const filters: repo.MemberFilters = {
    campaignId: program.id,
    holderId,
    createdBefore: query['created_at[before]'],
    createdAfter: query['created_at[after]'],
    updatedBefore: query['updated_at[before]'],
    updatedAfter: query['updated_at[after]'],
  };
  const order = query.order ?? { field: 'created_at', direction: 'desc' };
  const offset = (query.page - 1) * query.limit;
  if (query.code !== undefined || query.ids !== undefined) {
    const keys = { codes: query.code === undefined ? undefined : [query.code], ids: query.ids };
    const rows = withNames(program.name, await repo.listMembersByKeys(deps.db, filters, keys));
    return listEnvelope('vouchers', await present(deps.db, orderAndPage(rows, order, offset, query.limit)), {
      total: rows.length,
    });
  }
  const rows = await repo.listMembers(deps.db, filters, { limit: query.limit, offset, order });
  // The campaign keeps its card count in the same transaction as every insert and delete.
  const total = repo.hasMemberFilters(filters)
    ? await repo.countMembers(deps.db, filters)
    : program.campaign.vouchers_count;
  return listEnvelope('vouchers', await present(deps.db, withNames(program.name, rows)), { total });
}

/**
 * GET /v1/loyalties/members/{code} and GET /v1/loyalties/{id or name}/members/{code}: the
 * card. The program form is 404 for a card of another program.
 */
export async function getMember(deps: ReadDeps, code: string, programRef?: string): Promise<VoucherView> {
  const program = programRef === undefined ? undefined : await findProgram(deps, programRef);
  const card = await repo.findCardByCode(deps.db, code);
  if (!card || (program && card.campaign_id !== program.id)) throw notFound('voucher', code);
  return (await present(deps.db, [card]))[0] as VoucherView;
}
