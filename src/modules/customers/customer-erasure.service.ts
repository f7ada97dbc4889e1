import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { notFound } from '../../lib/errors.js';
import * as repo from './customers.repository.js';

type Db = Kysely<Database>;

/** The id of the customer an id or source_id names, or 404. */
export async function findCustomerIdToErase(trx: Db, ref: string): Promise<string> {
  const row = await repo.findCustomerByRef(trx, ref);
  if (!row) throw notFound('customer', ref);
  return row.id;
}

/**
 * Permanent deletion: the customer's row (its loyalty and referral rows cascade), inside the
 * caller's transaction, once every record that references it has let go (orders).
 */
export async function eraseCustomerRow(trx: Db, id: string): Promise<void> {
  await repo.deleteCustomer(trx, id);
}
