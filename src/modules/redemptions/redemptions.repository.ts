import type { Insertable, Kysely } from 'kysely';

import type { Database } from '../../db/database.js';
import type { RedemptionRow } from './redemptions.presenter.js';
import type { RedemptionTable } from './redemptions.table.js';

type Db = Kysely<Database>;
export type NewRedemptionRow = Insertable<RedemptionTable>;

export const NO_RELATED_REDEMPTIONS = '{"rollbacks":[],"redemptions":[]}';

/**
 * One statement for a parent and its children (a request writes them together). A multi-row
 * insert names the union of the rows' columns and SQLite has no DEFAULT in VALUES, so the one
 * column with a default is filled here.
 */
export async function insertRedemptions(db: Db, rows: NewRedemptionRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('redemptions').values(rows.map((row) => ({ ...row, related_redemptions: row.related_redemptions ?? NO_RELATED_REDEMPTIONS }))).execute();
}

export const findRedemptionById = (db: Db, id: string): Promise<RedemptionRow | undefined> =>
  db.selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst();

/** A voucher's latest redemption records, newest first (on the voucher's index). */
export const listVoucherRedemptions = (db: Db, voucherId: string, limit: number): Promise<RedemptionRow[]> =>
  db.selectFrom('redemptions').selectAll().where('voucher_id', '=', voucherId).orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(limit).execute();

export const countVoucherRedemptions = async (db: Db, voucherId: string): Promise<number> =>
  Number((await db.selectFrom('redemptions').select((eb) => eb.fn.countAll().as('n')).where('voucher_id', '=', voucherId).executeTakeFirstOrThrow()).n);

/** A customer's successful redemptions of a voucher or promotion tier (not rolled back): per-customer limits. */
export const countCustomerRedemptions = async (db: Db, customerId: string, relatedObjectId: string): Promise<number> =>
  Number(
    (
      await db
        .selectFrom('redemptions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('customer_id', '=', customerId)
        .where('related_object_id', '=', relatedObjectId)
        .where('object', '=', 'redemption')
        .where('status', '=', 'SUCCEEDED')
        .executeTakeFirstOrThrow()
    ).n,
  );
