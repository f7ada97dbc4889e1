import { dialectOf } from '../../db/dialect.js';
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
 * `referrerId` becomes the bare reference {id, object}. The JSON terms are the engine's
 * (dialectOf: on PostgreSQL the rewritten text is jsonb's spelling; readers parse it).
 */
export async function reduceReferrer(db: Db, customerIds: string[], referrerId: string): Promise<void> {
  if (customerIds.length === 0) return;
  const dialect = dialectOf(db);
  await db
    .updateTable('customer_events')
    .set({ data: dialect.jsonSet('data', 'referrer', JSON.stringify({ id: referrerId, object: 'customer' })) })
    .where('customer_id', 'in', customerIds)
    .where(dialect.jsonValue<string>('data', ['referrer', 'id']), '=', referrerId)
    .execute();
}
