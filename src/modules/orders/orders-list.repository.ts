import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { ORDER_STATUSES, type OrderStatus } from '../../lib/enums.js';
import type { OrderRow } from './orders.repository.js';
import type { Db } from '../../db/engine.js';

/** The filters that define the set a list counts (`total`). */
export interface OrderFilters {
  customerId?: string;
  status?: OrderStatus;
}

export interface OrderPageQuery {
  filters: OrderFilters;
  sort: { field: 'created_at' | 'updated_at'; direction: 'asc' | 'desc' };
  offset: number;
  limit: number;
}

function applyFilters<O>(
  query: SelectQueryBuilder<Database, 'orders', O>,
  f: OrderFilters,
): SelectQueryBuilder<Database, 'orders', O> {
  let q = query;
  if (f.customerId !== undefined) q = q.where('customer_id', '=', f.customerId);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  return q;
}

/**
 * One page. Each filter and order has its index (customer, status or both, then the sort
 * field, then seq), so the page is read in order from it without a sort.
 */
export const listOrderPage = (db: Db, q: OrderPageQuery): Promise<OrderRow[]> =>
  applyFilters(db.selectFrom('orders').selectAll(), q.filters)
    .orderBy(q.sort.field, q.sort.direction)
    .orderBy('seq', q.sort.direction)
    .limit(q.limit)
    .offset(q.offset)
    .execute();

/**
 * The exact number of orders matching the filters. Without a customer it is read from the
 * per-status counters the triggers keep (sql/0008_orders.sql); with one, counted on the
 * customer's index, so its cost grows with that customer's orders only.
 */
export async function countOrders(db: Db, f: OrderFilters): Promise<number> {
  if (f.customerId === undefined) {
    // By key, even for all four: a plan reads the counters' rows, never scans a table.
    const counts = db
      .selectFrom('order_counts')
      .select((eb) => eb.fn.sum<number>('total').as('n'))
      .where('status', 'in', f.status !== undefined ? [f.status] : ORDER_STATUSES);
    return Number((await counts.executeTakeFirstOrThrow()).n ?? 0);
  }
  const row = await applyFilters(
    db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')),
    f,
  ).executeTakeFirstOrThrow();
  return row.n;
}
