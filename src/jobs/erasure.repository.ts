import { type Expression, type SqlBool, sql } from 'kysely';
import { dialectOf } from '../db/dialect.js';
import type { JobStatus } from './jobs.table.js';
import type { Db } from '../db/engine.js';

/**
 * The job data that names a customer, for their permanent deletion. The searches of whole
 * tables (no index can serve a search inside JSON text) run on a read snapshot before the
 * deletion's transaction; inside it, only what changed since is read, by key ranges
 * (jobs/erasure.service.ts).
 */

/** `column` holds any of `texts`: a plain byte search (LIKE would read `%` and `_` and fold case). */
const holdsAny = (db: Db, column: string, texts: readonly string[]): Expression<SqlBool> =>
  texts.length === 0
    ? sql.lit(false)
    : sql<SqlBool>`(${sql.join(
        texts.map((text) => dialectOf(db).contains(column, text)),
        sql` OR `,
      )})`;

export interface StoredItemRow {
  action_id: string;
  position: number;
  body: string;
  status: JobStatus;
}

/** Positions of a job's items or failures: all of them, after one, or exactly one. */
export type Positions = { actionId: string; after: number } | { actionId: string; at: number } | 'all';

const itemsQuery = (db: Db) =>
  db
    .selectFrom('async_action_items')
    .innerJoin('async_actions', 'async_actions.id', 'async_action_items.action_id')
    .select([
      'async_action_items.action_id',
      'async_action_items.position',
      'async_action_items.body',
      'async_actions.status',
    ]);

/** Stored items (not yet processed) at `where` whose body holds any of `texts`, with their job's status. */
export function listItemsHolding(db: Db, texts: readonly string[], where: Positions = 'all'): Promise<StoredItemRow[]> {
  let query = itemsQuery(db).where(holdsAny(db, 'async_action_items.body', texts));
  if (where !== 'all') query = query.where('async_action_items.action_id', '=', where.actionId);
  if (where !== 'all' && 'after' in where) query = query.where('async_action_items.position', '>', where.after);
  if (where !== 'all' && 'at' in where) query = query.where('async_action_items.position', '=', where.at);
  return query.execute();
}

/** A job open (enqueued or running) at a read: its last item and failure positions then (-1: none). */
export interface OpenJobFrontier {
  id: string;
  lastItem: number;
  lastFailure: number;
}

/** The jobs open now with how far their items and failures reach (a max over each's key: no scan). */
export const listOpenJobFrontiers = (db: Db): Promise<OpenJobFrontier[]> =>
  db
    .selectFrom('async_actions as a')
    .select((eb) => [
      'a.id',
      eb.fn
        .coalesce(
          eb
            .selectFrom('async_action_items as i')
            .select((e) => e.fn.max('i.position').as('m'))
            .whereRef('i.action_id', '=', 'a.id'),
          eb.lit(-1),
        )
        .as('lastItem'),
      eb.fn
        .coalesce(
          eb
            .selectFrom('async_action_failures as f')
            .select((e) => e.fn.max('f.position').as('m'))
            .whereRef('f.action_id', '=', 'a.id'),
          eb.lit(-1),
        )
        .as('lastFailure'),
    ])
    .where('a.status', 'in', ['ENQUEUED', 'IN_PROGRESS'])
    .execute() as Promise<OpenJobFrontier[]>;

/** The newest job's seq (0: none). */
export async function lastJobSeq(db: Db): Promise<number> {
  const row = await db
    .selectFrom('async_actions')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return row?.seq ?? 0;
}

/** The ids of the jobs created after `seq`. */
export const listJobsAfter = async (db: Db, seq: number): Promise<string[]> =>
  (await db.selectFrom('async_actions').select('id').where('seq', '>', seq).execute()).map((row) => row.id);

export async function deleteItem(db: Db, actionId: string, position: number): Promise<void> {
  await db
    .deleteFrom('async_action_items')
    .where('action_id', '=', actionId)
    .where('position', '=', position)
    .execute();
}

/** An open job's count of failed items grows by `n` (items erased before they ran). */
export async function addFailedCount(db: Db, id: string, n: number): Promise<void> {
  await db
    .updateTable('async_actions')
    .set((eb) => ({ failed_count: eb('failed_count', '+', n) }))
    .where('id', '=', id)
    .execute();
}

/** Failures at `where` whose key is one of `keys` or whose reason holds any of `texts`. */
export function listFailuresNaming(
  db: Db,
  keys: readonly string[],
  texts: readonly string[],
  where: Positions = 'all',
) {
  let query = db
    .selectFrom('async_action_failures')
    .select(['action_id', 'position', 'key', 'reason'])
    .where((eb) => eb.or([eb('key', 'in', keys.length === 0 ? [''] : [...keys]), holdsAny(db, 'reason', texts)]));
  if (where !== 'all') query = query.where('action_id', '=', where.actionId);
  if (where !== 'all' && 'after' in where) query = query.where('position', '>', where.after);
  if (where !== 'all' && 'at' in where) query = query.where('position', '=', where.at);
  return query.execute();
}

export async function updateFailure(
  db: Db,
  actionId: string,
  position: number,
  patch: { key: string | null; reason: string },
): Promise<void> {
  await db
    .updateTable('async_action_failures')
    .set(patch)
    .where('action_id', '=', actionId)
    .where('position', '=', position)
    .execute();
}

/** Jobs (all of them, or these) whose payload or result holds any of `texts`. */
export function listJobsHolding(db: Db, texts: readonly string[], ids?: readonly string[]) {
  let query = db
    .selectFrom('async_actions')
    .select(['id', 'payload', 'result'])
    .where((eb) => eb.or([holdsAny(db, 'payload', texts), holdsAny(db, 'result', texts)]));
  if (ids !== undefined) query = query.where('id', 'in', ids.length === 0 ? [''] : [...ids]);
  return query.execute();
}

export async function updateJobData(
  db: Db,
  id: string,
  patch: { payload: string; result: string | null },
): Promise<void> {
  await db.updateTable('async_actions').set(patch).where('id', '=', id).execute();
}
