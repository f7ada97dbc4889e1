import type { Selectable } from 'kysely';
import type { Db } from '../../db/engine.js';
import { queryTemplate } from '../../db/query-template.js';
import type { PointsBucketTable } from './ledgers.table.js';

export type PointsBucketRow = Selectable<PointsBucketTable>;

type BucketFigures = Pick<PointsBucketRow, 'id' | 'expires_on' | 'total_points'>;

const addBucket = queryTemplate<
  { id: string; voucher_id: string; campaign_id: string | null; expires_on: string; points: number; at: string },
  BucketFigures
>((db, param) =>
  db
    .insertInto('points_buckets')
    .values({
      id: param('id'),
      voucher_id: param('voucher_id'),
      campaign_id: param('campaign_id'),
      expires_on: param('expires_on'),
      total_points: param('points'),
      status: 'ACTIVE',
      created_at: param('at'),
    })
    .onConflict((oc) =>
      oc.columns(['voucher_id', 'expires_on']).doUpdateSet((eb) => ({
        total_points: eb(eb.ref('points_buckets.total_points'), '+', eb.ref('excluded.total_points')),
        updated_at: eb.ref('excluded.created_at'),
      })),
    )
    .returning(['id', 'expires_on', 'total_points']),
);

/** Adds points to the card's bucket of that date (made on first use); returns the bucket after it. */
export async function addToBucket(
  db: Db,
  input: { id: string; voucherId: string; campaignId: string | null; expiresOn: string; points: number; at: string },
): Promise<BucketFigures> {
  const params = {
    id: input.id,
    voucher_id: input.voucherId,
    campaign_id: input.campaignId,
    expires_on: input.expiresOn,
    points: input.points,
    at: input.at,
  };
  return (await addBucket(db, params))[0] as BucketFigures;
}

/** Takes points from one bucket, guarded; false when it holds fewer. */
export async function takeFromBucket(db: Db, bucketId: string, points: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('points_buckets')
    .set((eb) => ({ total_points: eb('total_points', '-', points), updated_at: at }))
    .where('id', '=', bucketId)
    .where('status', '=', 'ACTIVE')
    .where('total_points', '>=', points)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function insertDraws(
  db: Db,
  draws: Array<{ entry_id: string; bucket_id: string; points: number }>,
): Promise<void> {
  if (draws.length > 0) await db.insertInto('points_draws').values(draws).execute();
}

/** The card's buckets with points left (ACTIVE), soonest-expiring first and never-expiring last; a page of them when asked. */
export function listOpenBuckets(
  db: Db,
  voucherId: string,
  page?: { limit: number; offset: number },
): Promise<PointsBucketRow[]> {
  const query = db
    .selectFrom('points_buckets')
    .selectAll()
    .where('voucher_id', '=', voucherId)
    .where('status', '=', 'ACTIVE')
    .where('total_points', '>', 0)
    .orderBy('expires_on');
  return (page ? query.limit(page.limit).offset(page.offset) : query).execute();
}

export async function countOpenBuckets(db: Db, voucherId: string): Promise<number> {
  const row = await db
    .selectFrom('points_buckets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('voucher_id', '=', voucherId)
    .where('status', '=', 'ACTIVE')
    .where('total_points', '>', 0)
    .executeTakeFirstOrThrow();
  return row.n;
}

export type DrawRow = { entry_id: string; bucket_id: string; points: number };

export const listDrawsOf = (db: Db, entryId: string): Promise<DrawRow[]> =>
  db.selectFrom('points_draws').select(['entry_id', 'bucket_id', 'points']).where('entry_id', '=', entryId).execute();

/** Puts points back into a live bucket (guarded: ACTIVE); false for a bucket that expired since. */
export async function giveBackToBucket(db: Db, bucketId: string, points: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('points_buckets')
    .set((eb) => ({ total_points: eb('total_points', '+', points), updated_at: at }))
    .where('id', '=', bucketId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Points given back to an expired bucket expire with it: counted in its expired_points. */
export async function addExpiredToBucket(db: Db, bucketId: string, points: number, at: string): Promise<void> {
  await db
    .updateTable('points_buckets')
    .set((eb) => ({ expired_points: eb('expired_points', '+', points), updated_at: at }))
    .where('id', '=', bucketId)
    .execute();
}
