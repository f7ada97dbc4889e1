import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';

/**
 * Replaces a customer's snapshots in their redemption records by the bare reference
 * {id, object} (what a redemption of a customer deleted since shows) and clears tracking_id
 * (their source_id, often an email), on redemptions_customer. The order snapshot's customer
 * is that bare reference already; it is set again so no older shape survives. The JSON terms
 * are the engine's (dialectOf); the builder has no JSON functions.
 */
export async function eraseCustomerSnapshots(db: Kysely<Database>, customerId: string): Promise<number> {
  const bare = JSON.stringify({ id: customerId, object: 'customer' });
  const dialect = dialectOf(db);
  const result = await db
    .updateTable('redemptions')
    .set({
      customer_snapshot: sql<string>`CASE WHEN customer_snapshot IS NULL THEN NULL ELSE ${bare} END`,
      order_snapshot: sql<string>`CASE WHEN ${dialect.jsonIsObject('order_snapshot', 'customer')} THEN ${dialect.jsonSet('order_snapshot', 'customer', bare)} ELSE order_snapshot END`,
      tracking_id: null,
    })
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The seq of the customer's first redemption record (redemptions_customer), or null. */
export async function findFirstRedemptionSeq(db: Kysely<Database>, customerId: string): Promise<number | null> {
  const row = await db
    .selectFrom('redemptions')
    .select((eb) => eb.fn.min<number | null>('seq').as('seq'))
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return row?.seq ?? null;
}
