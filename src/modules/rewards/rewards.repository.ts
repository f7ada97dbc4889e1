import type { Insertable, Selectable, Updateable } from 'kysely';
import type { RewardTable } from './rewards.table.js';
import type { Db } from '../../db/engine.js';

export type RewardRow = Selectable<RewardTable>;
export type RewardPatch = Omit<Updateable<RewardTable>, 'stock' | 'redeemed'>;

export const findRewardById = (db: Db, id: string): Promise<RewardRow | undefined> =>
  db.selectFrom('rewards').selectAll().where('id', '=', id).executeTakeFirst();

export const findRewardsByIds = (db: Db, ids: readonly string[]): Promise<RewardRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('rewards').selectAll().where('id', 'in', ids).execute();

export const insertReward = async (db: Db, row: Insertable<RewardTable>): Promise<void> => {
  await db.insertInto('rewards').values(row).execute();
};

export const updateReward = async (db: Db, id: string, patch: RewardPatch): Promise<void> => {
  await db.updateTable('rewards').set(patch).where('id', '=', id).execute();
};

/**
 * Sets the stock in one guarded statement: never below what was redeemed (a redemption may
 * claim one between the caller's read and this write). False when the guard refused.
 */
export async function setRewardStock(db: Db, id: string, stock: number | null, at: string): Promise<boolean> {
  const result = await db
    .updateTable('rewards')
    .set({ stock, updated_at: at })
    .where('id', '=', id)
    .$if(stock !== null, (q) =>
      q.where((eb) => eb.or([eb('redeemed', 'is', null), eb('redeemed', '<=', stock as number)])),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Claims one unit of a reward: `redeemed` grows by one unless the stock is spent, in one
 * guarded statement (docs/architecture.md, Design rules), so two redemptions racing for the last unit cannot both
 * win. Returns the row after the claim, or undefined when nothing was left (or no such reward).
 */
export const claimRewardUnit = (db: Db, id: string): Promise<RewardRow | undefined> =>
  db
    .updateTable('rewards')
    .set((eb) => ({ redeemed: eb(eb.fn.coalesce('redeemed', eb.lit(0)), '+', 1) }))
    .where('id', '=', id)
    // Units held by live session locks (sql/0020) are not for others.
    .where((eb) =>
      eb.or([
        eb('stock', 'is', null),
        eb(eb(eb.fn.coalesce('redeemed', eb.lit(0)), '+', eb.ref('reserved')), '<', eb.ref('stock')),
      ]),
    )
    .returningAll()
    .executeTakeFirst();

/** Gives a unit back (a rollback of its redemption): `redeemed` shrinks by one, never below zero. */
export const releaseRewardUnit = (db: Db, id: string): Promise<RewardRow | undefined> =>
  db
    .updateTable('rewards')
    .set((eb) => ({ redeemed: eb('redeemed', '-', 1) }))
    .where('id', '=', id)
    .where('redeemed', '>', 0)
    .returningAll()
    .executeTakeFirst();

export const deleteReward = async (db: Db, id: string): Promise<void> => {
  await db.deleteFrom('rewards').where('id', '=', id).execute();
};

/** A page of rewards in creation order, walked on rewards_created_at. */
export const listRewards = (db: Db, page: { limit: number; offset: number }): Promise<RewardRow[]> =>
  db
    .selectFrom('rewards')
    .selectAll()
    .orderBy('created_at')
    .orderBy('seq')
    .limit(page.limit)
    .offset(page.offset)
    .execute();

export const countRewards = async (db: Db): Promise<number> =>
  (
    await db
      .selectFrom('rewards')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
