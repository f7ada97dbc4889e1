import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import type { JobStatus } from './jobs.table.js';

/**
 * The job data that names a customer, for their permanent deletion. These reads scan the
 * tables whole (no index can serve a search inside JSON text): a permanent deletion is rare,
 * and its transaction holds the write lock for the length of one scan of each table.
 */
type Db = Kysely<Database>;

/**
 * `column` holds any of `texts`: instr is a plain byte search (LIKE would read `%` and `_`
 * and fold case), which the builder has no function for; hence raw SQL.
 */
const holdsAny = (column: string, texts: readonly string[]): RawBuilder<boolean> =>
  texts.length === 0 ? sql<boolean>`0` : sql<boolean>`(${sql.join(texts.map((text) => sql`instr(${sql.ref(column)}, ${text}) > 0`), sql` OR `)})`;

export interface StoredItemRow {
  action_id: string;
  position: number;
  body: string;
  status: JobStatus;
}

/** Stored items (not yet processed) whose body holds any of `texts`, with their job's status. */
export const listItemsHolding = (db: Db, texts: readonly string[]): Promise<StoredItemRow[]> =>
  db
    .selectFrom('async_action_items')
    .innerJoin('async_actions', 'async_actions.id', 'async_action_items.action_id')
    .select(['async_action_items.action_id', 'async_action_items.position', 'async_action_items.body', 'async_actions.status'])
    .where(holdsAny('async_action_items.body', texts))
    .execute();

export async function deleteItem(db: Db, actionId: string, position: number): Promise<void> {
  await db.deleteFrom('async_action_items').where('action_id', '=', actionId).where('position', '=', position).execute();
}

/** An open job's count of failed items grows by `n` (items erased before they ran). */
export async function addFailedCount(db: Db, id: string, n: number): Promise<void> {
  await db.updateTable('async_actions').set((eb) => ({ failed_count: eb('failed_count', '+', n) })).where('id', '=', id).execute();
}

/** Failures whose key is one of `keys` or whose reason holds any of `texts`. */
export const listFailuresNaming = (db: Db, keys: readonly string[], texts: readonly string[]) =>
  db
    .selectFrom('async_action_failures')
    .select(['action_id', 'position', 'key', 'reason'])
    .where((eb) => eb.or([eb('key', 'in', keys.length === 0 ? [''] : [...keys]), holdsAny('reason', texts)]))
    .execute();

export async function updateFailure(db: Db, actionId: string, position: number, patch: { key: string | null; reason: string }): Promise<void> {
  await db.updateTable('async_action_failures').set(patch).where('action_id', '=', actionId).where('position', '=', position).execute();
}

/** Jobs whose payload or result holds any of `texts`. */
export const listJobsHolding = (db: Db, texts: readonly string[]) =>
  db
    .selectFrom('async_actions')
    .select(['id', 'payload', 'result'])
    .where((eb) => eb.or([holdsAny('payload', texts), holdsAny('result', texts)]))
    .execute();

export async function updateJobData(db: Db, id: string, patch: { payload: string; result: string | null }): Promise<void> {
  await db.updateTable('async_actions').set(patch).where('id', '=', id).execute();
}
