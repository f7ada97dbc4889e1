import type { Tx } from '../../db/engine.js';
import { deleteAnswersMentioning } from './idempotency-erasure.repository.js';

/**
 * Permanent deletion: stored answers to keyed requests that show the customer (a created
 * customer, a redemption, a publication) are forgotten, inside the caller's transaction. A
 * retry with such a key afterwards runs as a new request.
 */
export const forgetAnswersAbout = (trx: Tx, customerId: string): Promise<number> =>
  deleteAnswersMentioning(trx, customerId);
