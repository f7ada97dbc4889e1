import type { Deps } from '../../../app/deps.js';
import type { WindowScan } from '../../../db/filter-window.js';
import { notFound } from '../../../lib/errors.js';
import { listEnvelope } from '../../../lib/pagination.js';
import { findSimpleCustomer } from '../../customers/index.js';
import * as listRepo from './redemptions-list.repository.js';
import type { RedemptionsListQuery } from './redemptions-list.schemas.js';
import { presentRedemption, type RedemptionObject } from '../redemptions.presenter.js';
import { findRedemptionById } from '../redemptions.repository.js';

type ReadDeps = Pick<Deps, 'db'>;

/**
 * The customer id `customer` names: a customer's id or source_id. A ref that names no customer
 * now is kept as an id, so the records of a deleted customer (history, kept by id) are still
 * found, and an unknown ref matches nothing: an empty list, as the reference answers.
 */
async function customerIdOf(deps: ReadDeps, ref: string): Promise<string> {
  return (await findSimpleCustomer(deps.db, ref))?.id ?? ref;
}

const envelope = (rows: RedemptionObject[], total: number) => listEnvelope('redemptions', rows, { total });

/**
 * GET /v1/redemptions (the reference's "List Redemptions"): redemptions, failed ones and rollback records, newest
 * first unless `order` says otherwise, `limit` 1..100, `page` 1..99; `total` is the exact
 * number of records matching the filters. With a filter no index serves, page and total are
 * those of the bounded window (db/filter-window.ts), and `window` says what it examined.
 */
export async function listRedemptions(
  deps: ReadDeps,
  query: RedemptionsListQuery,
): Promise<{ list: ReturnType<typeof envelope>; window?: WindowScan }> {
  if (query.where.none) return { list: envelope([], 0) };
  const equal = { ...query.where.equal };
  if (query.customer !== undefined) equal.customer_id = await customerIdOf(deps, query.customer);
  const filters: listRepo.RedemptionFilters = {
    equal,
    createdBefore: query.createdBefore,
    createdAfter: query.createdAfter,
  };
  const page = { filters, sort: query.order, offset: (query.page - 1) * query.limit, limit: query.limit };
  const residual = query.where.residual;
  if (residual !== undefined) {
    const { rows, total, scan } = await listRepo.readRedemptionWindow(deps.db, page, residual);
    return { list: envelope(rows.map(presentRedemption), total), window: scan };
  }
  const rows = await listRepo.listRedemptionPage(deps.db, page);
  return { list: envelope(rows.map(presentRedemption), await listRepo.countRedemptions(deps.db, filters)) };
}

/** GET /v1/redemptions/{id}: a redemption, a failed one (rf_) or a rollback record (rr_); 404 otherwise. */
export async function getRedemption(deps: ReadDeps, id: string): Promise<RedemptionObject> {
  const row = await findRedemptionById(deps.db, id);
  if (row === undefined) throw notFound('redemption', id);
  return presentRedemption(row);
}
