import type { Db } from '../db/engine.js';

/** A job's stored items (an import's input) and its failures, item by item. */

export const insertItems = async (
  db: Db,
  rows: Array<{ action_id: string; position: number; body: string }>,
): Promise<void> => {
  if (rows.length === 0) return;
  await db.insertInto('async_action_items').values(rows).execute();
};

export const listItems = (db: Db, id: string, fromPosition: number, limit: number) =>
  db
    .selectFrom('async_action_items')
    .select(['position', 'body'])
    .where('action_id', '=', id)
    .where('position', '>=', fromPosition)
    .orderBy('position')
    .limit(limit)
    .execute();

export const deleteItemsBefore = async (db: Db, id: string, position: number): Promise<void> => {
  await db.deleteFrom('async_action_items').where('action_id', '=', id).where('position', '<', position).execute();
};

export const insertFailures = async (
  db: Db,
  rows: Array<{ action_id: string; position: number; key: string | null; reason: string; error_key: string | null }>,
): Promise<void> => {
  // 500 rows of 5 values a statement: a long portion of failing items (thousands) would pass
  // SQLite's cap of bound parameters in one.
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('async_action_failures')
      .values(rows.slice(i, i + 500))
      .execute();
};

export type FailureRow = { position: number; key: string | null; reason: string; error_key: string | null };

/**
 * A job's failures in item order, after `afterPosition`, at most `limit`: one short range
 * of the primary key (action_id, position), so a long list is read page by page.
 */
export const listFailures = (db: Db, id: string, afterPosition: number, limit: number): Promise<FailureRow[]> =>
  db
    .selectFrom('async_action_failures')
    .select(['position', 'key', 'reason', 'error_key'])
    .where('action_id', '=', id)
    .where('position', '>', afterPosition)
    .orderBy('position')
    .limit(limit)
    .execute();
