import type { Tx } from '../../db/engine.js';
import { unlinkCustomer } from './orders-erasure.repository.js';

/**
 * Permanent deletion: the customer's orders stay (their amounts are the figures of campaigns
 * and order counts) without their customer or referrer, inside the caller's transaction.
 * An order stores no personal data beyond that link. The number of orders changed, and the
 * customers whose orders the customer referred.
 */
export const unlinkCustomerFromOrders = (
  trx: Tx,
  customerId: string,
): Promise<{ orders: number; referredCustomerIds: string[] }> => unlinkCustomer(trx, customerId);
