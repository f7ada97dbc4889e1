import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';

/**
 * Unlinks a customer from the orders that name them as customer or referrer
 * (orders_customer_created_at, orders_referrer): the number of orders changed, and the
 * customers of the orders they referred (whose order events embed them as referrer).
 */
export async function unlinkCustomer(
  db: Kysely<Database>,
  customerId: string,
): Promise<{ orders: number; referredCustomerIds: string[] }> {
  const referred = await db
    .selectFrom('orders')
    .select('customer_id')
    .distinct()
    .where('referrer_id', '=', customerId)
    .where('customer_id', 'is not', null)
    .execute();
  const own = await db
    .updateTable('orders')
    .set({ customer_id: null })
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  const asReferrer = await db
    .updateTable('orders')
    .set({ referrer_id: null })
    .where('referrer_id', '=', customerId)
    .executeTakeFirst();
  return {
    orders: Number(own.numUpdatedRows + asReferrer.numUpdatedRows),
    referredCustomerIds: referred.map((r) => r.customer_id as string),
  };
}
