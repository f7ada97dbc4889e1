import type { Deps } from '../../app/deps.js';
import { listEnvelope } from '../../lib/pagination.js';
import { listCustomerEvents, listCustomerEventsWithTotal, type ActivityQuery } from '../events/index.js';
import { notFound } from '../../lib/errors.js';
import * as listRepo from './customers-list.repository.js';
import { findCustomerByRef } from './customers.repository.js';
import type { CustomersListQuery } from './customers-list.schemas.js';
import { presentRows } from './customer-change.service.js';

type ReadDeps = Pick<Deps, 'db'>;

/**
 * The starting_after cursor (the reference's "List Customers") is a date on created_at, or on updated_at when the
 * list is ordered by it. Ascending orders list what comes after the date; descending ones (the
 * default) and the source_id orders list what was created before it.
 */
function cursorOf(query: CustomersListQuery): listRepo.CustomerPageQuery['cursor'] {
  if (query.starting_after === undefined) return undefined;
  const order = query.order;
  if (order && order.field !== 'source_id') {
    return { field: order.field, op: order.direction === 'asc' ? '>' : '<', value: query.starting_after };
  }
  return { field: 'created_at', op: '<', value: query.starting_after };
}

const filtersOf = (q: CustomersListQuery): listRepo.CustomerFilters => ({
  email: q.email,
  city: q.city,
  name: q.name,
  segmentId: q.segment_id,
  createdBefore: q['created_at[before]'],
  createdAfter: q['created_at[after]'],
  updatedBefore: q['updated_at[before]'],
  updatedAfter: q['updated_at[after]'],
});

/**
 * GET /v1/customers. `total` is the exact number of customers matching the filters (email,
 * city, name, segment_id, created_at and updated_at ranges); the page and the starting_after
 * cursor do not change it. Without filters it is read from a trigger-kept counter, so a
 * million customers cost nothing to count. segment_id keeps the segment's members (an
 * unknown segment has none).
 */
export async function listCustomers(deps: ReadDeps, query: CustomersListQuery) {
  const filters = filtersOf(query);
  const rows = await listRepo.listCustomerPage(deps.db, {
    filters,
    sort: query.order ?? { field: 'created_at', direction: 'desc' },
    cursor: cursorOf(query),
    offset: (query.page - 1) * query.limit,
    take: query.limit + 1,
  });
  const total = listRepo.hasFilters(filters)
    ? await listRepo.countCustomers(deps.db, filters)
    : await listRepo.countAllCustomers(deps.db);
  const customers = await presentRows(deps.db, rows.slice(0, query.limit));
  return listEnvelope('customers', customers, { total, has_more: rows.length > query.limit });
}

async function customerIdOf(deps: ReadDeps, ref: string): Promise<string> {
  const customer = await findCustomerByRef(deps.db, ref);
  if (!customer) throw notFound('customer', ref);
  return customer.id;
}

/** GET /v1/customers/{id or source_id}/activity (the reference's "List Customer Activity"). */
export async function listCustomerActivity(deps: Pick<Deps, 'db' | 'seams'>, ref: string, query: ActivityQuery) {
  return listCustomerEvents(deps, await customerIdOf(deps, ref), query);
}

/** GET /v1/customers/{id or source_id}/activities (deprecated; the SDK's `customers.listActivities`): the same page with `total`. */
export async function listCustomerActivities(deps: Pick<Deps, 'db' | 'seams'>, ref: string, query: ActivityQuery) {
  return listCustomerEventsWithTotal(deps, await customerIdOf(deps, ref), query);
}
