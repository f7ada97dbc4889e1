import * as repo from './customers.repository.js';
import type { Db } from '../../db/engine.js';

/**
 * Customers an import portion read by source id in one query per batch (prefetchCustomers),
 * for its orders' lookups by source id: the row as read then, or null when none had that
 * source id. Every insert or update of a customer through customers.service.ts drops the entries of
 * its source ids (old and new), so a lookup through it answers the database's customer, its
 * own fields and identity at least (its summary moves with the portion's orders: callers read
 * only its id and own fields). A rolled-back write leaves its entries dropped: they are read
 * again. It dies with its transaction.
 */
export type CustomerCache = Map<string, repo.CustomerRow | null>;

export const newCustomerCache = (): CustomerCache => new Map();

/** Reads into `cache` the customers of these source ids (and which of them do not exist). */
export async function prefetchCustomers(db: Db, sourceIds: string[], cache: CustomerCache): Promise<void> {
  const wanted = [...new Set(sourceIds)].filter((sourceId) => !cache.has(sourceId));
  for (const sourceId of wanted) cache.set(sourceId, null);
  for (const row of await repo.findCustomersBySourceIds(db, wanted)) cache.set(row.source_id as string, row);
}

/** A customer was written: the cache's entries of its source ids go (customers.service calls it on every insert and update). */
export function forgetCustomer(cache: CustomerCache | undefined, ...sourceIds: Array<string | null | undefined>): void {
  for (const sourceId of sourceIds) if (sourceId != null) cache?.delete(sourceId);
}
