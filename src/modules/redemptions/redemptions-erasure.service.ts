import type { Tx } from '../../db/engine.js';
import { eraseCustomerSnapshots, findFirstRedemptionSeq } from './redemptions-erasure.repository.js';

/**
 * Permanent deletion: a customer's redemption records stay (they are the ledgers' and
 * counters' history) with the customer reduced to its id, inside the caller's transaction.
 */
export const eraseRedemptionCustomer = (trx: Tx, customerId: string): Promise<number> =>
  eraseCustomerSnapshots(trx, customerId);

/** The seq of the customer's first redemption record, or null: an export that reached it holds their snapshot. */
export const firstRedemptionSeqOf = (trx: Tx, customerId: string): Promise<number | null> =>
  findFirstRedemptionSeq(trx, customerId);
