import { dialectOf } from './dialect.js';
import type { Db } from './engine.js';

const NOTHING_LOCKED = Promise.resolve(false);

/**
 * The one order in which promo takes row locks: ids compared code unit by code unit, as
 * lockRows' sort() and PostgreSQL's C collation order them. Not localeCompare, which puts
 * `a` before `B`: two paths sorting the same ids the two ways lock them in opposite orders.
 */
export const lockOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Tables whose rows a transaction may lock before reading what it then writes by. */
export type LockableTable = 'customers' | 'orders' | 'products' | 'vouchers';

/**
 * Lock-first: locks these rows of `table` (in id order, so two transactions that lock the same
 * rows never wait for each other in a cycle) until the transaction ends, before it reads what
 * its writes depend on (a count of the customer's redemptions, say). On SQLite the transaction
 * holds the database's one write lock from its BEGIN IMMEDIATE, so there is nothing more to
 * take. On PostgreSQL (READ COMMITTED) each later statement then sees every transaction that
 * held these rows before, committed. One order across promo: session key, customer, order,
 * vouchers and cards (docs/concurrency.md). True when it locked: a row read before may since
 * have changed, and must be read again before anything is computed from it.
 *
 * Not an async function: on SQLite it answers one settled promise, so a caller on a hot path (an
 * import upserts a customer per order) makes no promise of its own there (docs/performance.md).
 */
export function lockRows(trx: Db, table: LockableTable, ids: readonly string[]): Promise<boolean> {
  if (ids.length === 0 || dialectOf(trx).name === 'sqlite') return NOTHING_LOCKED;
  return lockedRows(trx, table, ids);
}

/**
 * `row` (read before) locked with lockRows, then read again by `reread` when a lock was taken:
 * the row a write is computed from (a metadata merge, an upsert) as it stands under the lock.
 * Without it, two transactions on PostgreSQL both read the old row and the later write loses
 * the earlier one's change. On SQLite: `row` itself.
 */
export async function lockedRow<R extends { id: string }>(
  trx: Db,
  table: LockableTable,
  row: R | undefined,
  reread: (id: string) => Promise<R | undefined>,
): Promise<R | undefined> {
  return row && (await lockRows(trx, table, [row.id])) ? reread(row.id) : row;
}

async function lockedRows(trx: Db, table: LockableTable, ids: readonly string[]): Promise<boolean> {
  await trx
    .selectFrom(table)
    .select('id')
    .where('id', 'in', [...new Set(ids)].sort())
    .orderBy('id')
    .forUpdate()
    .execute();
  return true;
}

/**
 * `query` as a locking read: on PostgreSQL its rows stay locked (FOR UPDATE) until the
 * transaction ends, and READ COMMITTED re-checks its WHERE on the newest version of a row it
 * waited for (a row changed meanwhile so that it no longer matches is not returned). On SQLite,
 * which has no FOR UPDATE, the transaction's BEGIN IMMEDIATE already holds every row.
 */
export function lockingRead<Q extends { forUpdate(): Q }>(trx: Db, query: Q): Q {
  return dialectOf(trx).name === 'sqlite' ? query : query.forUpdate();
}

/**
 * Locks every API key's row (app_id order) until the transaction ends: what is counted across
 * all keys (the live OAuth tokens) is then counted by one transaction at a time. A no-op on
 * SQLite, as lockRows.
 */
export async function lockEveryApiKey(trx: Db): Promise<void> {
  if (dialectOf(trx).name === 'sqlite') return;
  await trx.selectFrom('api_keys').select('app_id').orderBy('app_id').forUpdate().execute();
}
