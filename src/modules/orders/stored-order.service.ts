import { lockedRow, lockRows } from '../../db/locks.js';
import { notFound } from '../../lib/errors.js';
import type { StoredOrder } from './order-draft.service.js';
import * as repo from './orders.repository.js';
import type { CreateOrderBody } from './orders.schemas.js';
import type { Db, Tx } from '../../db/engine.js';

/** The order with its items, as stored. */
export async function loadOrder(db: Db, row: repo.OrderRow): Promise<StoredOrder> {
  return { row, items: await repo.listOrderItemRows(db, [row.id]) };
}

/** The order row a body names (by `id`, else by `source_id`); an unknown `id` is 404. */
export async function namedOrderRow(db: Db, input: CreateOrderBody): Promise<repo.OrderRow | undefined> {
  if (input.id != null) {
    const row = await repo.findOrderById(db, input.id);
    if (!row) throw notFound('order', input.id);
    return row;
  }
  return input.source_id != null ? await repo.findOrderBySourceId(db, input.source_id) : undefined;
}

/** The stored order a body names, read without locking (a preview writes nothing). */
export async function namedOrder(db: Db, input: CreateOrderBody): Promise<StoredOrder | undefined> {
  const row = await namedOrderRow(db, input);
  return row && loadOrder(db, row);
}

/**
 * The stored order an upsert changes, locked and read again (db/locks.ts): its customer, then
 * the order, so two upserts of one order (two servers) compute their changes and move the
 * customers' summaries one after the other, each from the row the other left.
 */
export async function lockedOrder(trx: Tx, row: repo.OrderRow): Promise<StoredOrder> {
  if (row.customer_id !== null) await lockRows(trx, 'customers', [row.customer_id]);
  const locked = await lockedRow(trx, 'orders', row, (id) => repo.findOrderById(trx, id));
  return loadOrder(trx, locked ?? row);
}
