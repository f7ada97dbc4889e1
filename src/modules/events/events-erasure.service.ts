import type { Tx } from '../../db/engine.js';
import { deleteCustomerEvents, reduceReferrer } from './events-erasure.repository.js';

/**
 * Permanent deletion, inside the caller's transaction: a customer's events go with the
 * customer (their payloads embed the customer as it was), and the order events of the
 * customers they referred keep them as referrer by id only. How many events went, and how
 * many of them were about orders.
 */
export async function eraseCustomerEvents(
  trx: Tx,
  customerId: string,
  referredCustomerIds: string[],
): Promise<{ all: number; orders: number }> {
  await reduceReferrer(trx, referredCustomerIds, customerId);
  return deleteCustomerEvents(trx, customerId);
}
