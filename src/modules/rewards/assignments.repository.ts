import type { Insertable, Selectable, Updateable } from 'kysely';
import type { RewardAssignmentTable } from './rewards.table.js';
import type { Db } from '../../db/engine.js';

export type RewardAssignmentRow = Selectable<RewardAssignmentTable>;
export type AssignmentPatch = Updateable<RewardAssignmentTable>;
export interface Page {
  limit: number;
  offset: number;
}

export const findAssignmentById = (db: Db, id: string): Promise<RewardAssignmentRow | undefined> =>
  db.selectFrom('reward_assignments').selectAll().where('id', '=', id).executeTakeFirst();

/** The assignments of these rewards in one program (the duplicate check of a bulk create). */
export const findAssignmentsOfRewards = (
  db: Db,
  campaignId: string,
  rewardIds: readonly string[],
): Promise<RewardAssignmentRow[]> =>
  rewardIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('reward_assignments')
        .selectAll()
        .where('campaign_id', '=', campaignId)
        .where('reward_id', 'in', rewardIds)
        .execute();

export const insertRewardAssignmentRows = async (
  db: Db,
  rows: Array<Insertable<RewardAssignmentTable>>,
): Promise<void> => {
  if (rows.length > 0) await db.insertInto('reward_assignments').values(rows).execute();
};

export const updateAssignment = async (db: Db, id: string, patch: AssignmentPatch): Promise<void> => {
  await db.updateTable('reward_assignments').set(patch).where('id', '=', id).execute();
};

export const deleteRewardAssignmentRow = async (db: Db, id: string): Promise<void> => {
  await db.deleteFrom('reward_assignments').where('id', '=', id).execute();
};

/** One page of a program's (or a reward's) assignments in creation order; no page: all of them. */
export const listRewardAssignmentRows = (
  db: Db,
  by: { campaignId: string } | { rewardId: string },
  page?: Page,
): Promise<RewardAssignmentRow[]> =>
  db
    .selectFrom('reward_assignments')
    .selectAll()
    .$if('campaignId' in by, (q) => q.where('campaign_id', '=', (by as { campaignId: string }).campaignId))
    .$if('rewardId' in by, (q) => q.where('reward_id', '=', (by as { rewardId: string }).rewardId))
    .orderBy('seq')
    .$if(page !== undefined, (q) => q.limit((page as Page).limit).offset((page as Page).offset))
    .execute();

export const countRewardAssignments = async (
  db: Db,
  by: { campaignId: string } | { rewardId: string },
): Promise<number> =>
  (
    await db
      .selectFrom('reward_assignments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .$if('campaignId' in by, (q) => q.where('campaign_id', '=', (by as { campaignId: string }).campaignId))
      .$if('rewardId' in by, (q) => q.where('reward_id', '=', (by as { rewardId: string }).rewardId))
      .executeTakeFirstOrThrow()
  ).n;
