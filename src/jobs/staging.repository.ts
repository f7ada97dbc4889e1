import type { Db } from '../db/engine.js';

/*
 * A staged job's rows (jobs/staging.service.ts): a job fed item by item stays unsealed, under
 * its writer's lease, until its file is read; then it is sealed and any runner may claim it.
 */

/** Ends staging: the job holds `total` items and any runner may claim it. False if its writer lost it. */
export async function sealJob(
  db: Db,
  seal: { id: string; owner: string; total: number; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('async_actions')
    .set({ sealed: 1, total: seal.total, lease_owner: null, lease_expires_at: null, updated_at: seal.now })
    .where('id', '=', seal.id)
    .where('lease_owner', '=', seal.owner)
    .where('status', '=', 'ENQUEUED')
    .where('sealed', '=', 0)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Unsealed jobs (an import still reading its file), with their writer's lease. */
export const listUnsealed = (db: Db) =>
  db
    .selectFrom('async_actions')
    .select(['id', 'lease_owner', 'lease_expires_at'])
    .where('sealed', '=', 0)
    .where('status', '=', 'ENQUEUED')
    .execute();

/** Extends a staging writer's lease; false once the job is no longer its to fill (canceled, failed). */
export async function holdStaging(db: Db, id: string, owner: string, leaseUntil: number): Promise<boolean> {
  const result = await db
    .updateTable('async_actions')
    .set({ lease_expires_at: leaseUntil })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'ENQUEUED')
    .where('sealed', '=', 0)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Deletes a job its staging writer still holds, with its items (a refused upload leaves no trace). */
export async function deleteStagedJob(db: Db, id: string, owner: string): Promise<void> {
  const held = await db
    .selectFrom('async_actions')
    .select('id')
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('sealed', '=', 0)
    .executeTakeFirst();
  if (!held) return;
  await db.deleteFrom('async_action_items').where('action_id', '=', id).execute();
  await db.deleteFrom('async_action_failures').where('action_id', '=', id).execute();
  await db.deleteFrom('async_actions').where('id', '=', id).execute();
}
