import type { Insertable, Selectable, Updateable } from 'kysely';
import { queryTemplate } from '../../../db/query-template.js';
import type { OrderBy } from '../../../lib/pagination.js';
import type { LoyaltyTierTable } from './tiers.table.js';
import type { Db } from '../../../db/engine.js';

export type LoyaltyTierRow = Selectable<LoyaltyTierTable>;
export type TierPatch = Updateable<LoyaltyTierTable>;

export const findTier = (db: Db, campaignId: string, id: string): Promise<LoyaltyTierRow | undefined> =>
  db
    .selectFrom('loyalty_tiers')
    .selectAll()
    .where('id', '=', id)
    .where('campaign_id', '=', campaignId)
    .executeTakeFirst();

export const findTiersByIds = (db: Db, ids: readonly string[]): Promise<LoyaltyTierRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('loyalty_tiers').selectAll().where('id', 'in', ids).execute();

/** Every tier of a program by its lower bound (a program holds at most MAX_PROGRAM_TIERS). */
// Read on every points change of a card (the tier recomputation): built once, not per change.
const programTiers = queryTemplate<{ campaign_id: string }, LoyaltyTierRow>((db, param) =>
  db.selectFrom('loyalty_tiers').selectAll().where('campaign_id', '=', param('campaign_id')).orderBy('points_from'),
);

export const listProgramTiers = (db: Db, campaignId: string): Promise<LoyaltyTierRow[]> =>
  programTiers(db, { campaign_id: campaignId });

/** The tier whose range holds these points, if any (ranges of one program never overlap). */
export const findTierForPoints = (db: Db, campaignId: string, points: number): Promise<LoyaltyTierRow | undefined> =>
  db
    .selectFrom('loyalty_tiers')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .where('points_from', '<=', points)
    .orderBy('points_from', 'desc')
    .limit(1)
    .executeTakeFirst()
    .then((row) => (row && (row.points_to === null || row.points_to >= points) ? row : undefined));

export const insertTiers = async (db: Db, rows: Array<Insertable<LoyaltyTierTable>>): Promise<void> => {
  await db.insertInto('loyalty_tiers').values(rows).execute();
};

export const updateTier = async (db: Db, id: string, patch: TierPatch): Promise<void> => {
  await db.updateTable('loyalty_tiers').set(patch).where('id', '=', id).execute();
};

export const deleteTier = async (db: Db, id: string): Promise<void> => {
  await db.deleteFrom('loyalty_tiers').where('id', '=', id).execute();
};

/** A page of a program's tiers; never-updated tiers come first in ascending updated_at. */
export const listTiers = (
  db: Db,
  campaignId: string,
  sort: OrderBy<'created_at' | 'updated_at'>,
  page: { limit: number; offset: number },
): Promise<LoyaltyTierRow[]> =>
  db
    .selectFrom('loyalty_tiers')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .orderBy(sort.field, sort.direction)
    .orderBy('seq', sort.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();

export const countTiers = async (db: Db, campaignId: string): Promise<number> =>
  (
    await db
      .selectFrom('loyalty_tiers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('campaign_id', '=', campaignId)
      .executeTakeFirstOrThrow()
  ).n;
