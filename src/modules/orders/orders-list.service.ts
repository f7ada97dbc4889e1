import type { Deps } from '../../app/deps.js';
import { listEnvelope } from '../../lib/pagination.js';
import { findSimpleCustomer } from '../customers/index.js';
import * as listRepo from './orders-list.repository.js';
import { presentOrders, type OrderObject } from './orders.presenter.js';
import { listOrderItemRows } from './orders.repository.js';
import type { OrdersListQuery } from './orders.schemas.js';

type ReadDeps = Pick<Deps, 'db'>;

/**
 * The customer the `customer` and `customer_id` parameters name (each an id or a source id;
 * both given must name the same one). null: no customer matches, so no order does (an
 * unknown customer gives an empty list, as the redemption list does).
 */
async function customerIdOf(deps: ReadDeps, query: OrdersListQuery): Promise<string | null | undefined> {
  const refs = [query.customer, query.customer_id].filter((ref): ref is string => ref !== undefined);
  if (refs.length === 0) return undefined;
  const ids = new Set<string | undefined>();
  for (const ref of refs) ids.add((await findSimpleCustomer(deps.db, ref))?.id);
  const [id] = ids;
  return ids.size === 1 && id !== undefined ? id : null;
}

/**
 * GET /v1/orders: newest first unless `order` says otherwise (as the reference's example
 * answer lists them), `limit` 1..100, `page` 1..100, filtered by customer and status. `total`
 * is the exact number of orders matching the filters.
 */
export async function listOrders(deps: ReadDeps, query: OrdersListQuery) {
  const customerId = await customerIdOf(deps, query);
  if (customerId === null) return listEnvelope('orders', [] as OrderObject[], { total: 0 });
  const filters: listRepo.OrderFilters = { customerId, status: query.status };
  const rows = await listRepo.listOrderPage(deps.db, {
    filters,
    sort: query.order ?? { field: 'created_at', direction: 'desc' },
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  const total = await listRepo.countOrders(deps.db, filters);
  return listEnvelope(
    'orders',
    presentOrders(
      rows,
      await listOrderItemRows(
        deps.db,
        rows.map((row) => row.id),
      ),
    ),
    { total },
  );
}
