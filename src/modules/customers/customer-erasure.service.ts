import { notFound } from '../../lib/errors.js';
import * as repo from './customers.repository.js';
import type { Db, Tx } from '../../db/engine.js';

/** The customer a permanent deletion erases: its id, its seq, and the values that identify it in stored data. */
export interface CustomerToErase {
  id: string;
  seq: number;
  /** id, source_id, email and phone (those set): what names the customer in job data. */
  identifiers: string[];
}

/** The customer an id or source_id names, or 404. */
export async function findCustomerToErase(trx: Db, ref: string): Promise<CustomerToErase> {
  const row = await repo.findCustomerByRef(trx, ref);
  if (!row) throw notFound('customer', ref);
  const identifiers = [row.id, row.source_id, row.email, row.phone].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  return { id: row.id, seq: row.seq, identifiers };
}

/**
 * Permanent deletion: the customer's row (its loyalty and referral rows cascade), inside the
 * caller's transaction, once every record that references it has let go (orders).
 */
export async function eraseCustomerRow(trx: Tx, id: string): Promise<void> {
  await repo.deleteCustomer(trx, id);
}
