import { sql } from 'kysely';
import type { Db } from '../../db/engine.js';

/** Deletes a customer's events (customer_events_feed): how many, and how many of them were about orders. */
export async function deleteCustomerEvents(db: Db, customerId: string): Promise<{ all: number; orders: number }> {
  const orders = await db
    .selectFrom('customer_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('customer_id', '=', customerId)
    .where('type', 'like', 'customer.order.%')
    .executeTakeFirstOrThrow();
  const result = await db.deleteFrom('customer_events').where('customer_id', '=', customerId).executeTakeFirst();
  return { all: Number(result.numDeletedRows), orders: orders.n };
}

/**
 * In the events of these customers (customer_events_feed), an embedded `referrer` that is
 * `referrerId` becomes the bare reference {id, object}. Raw SQL for the JSON functions.
 */
export async function reduceReferrer(db: Db, customerIds: string[], referrerId: string): Promise<void> {
  if (customerIds.length === 0) return;
  await db
    .updateTable('customer_events')
    .set({ data: sql<string>`json_set(data, '$.referrer', json_object('id', ${referrerId}, 'object', 'customer'))` })
    .where('customer_id', 'in', customerIds)
    .where(sql<string>`json_extract(data, '$.referrer.id')`, '=', referrerId)
    .execute();
}
