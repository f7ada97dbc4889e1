import { sql, type Insertable, type Kysely } from 'kysely';
import { dialectOf } from '../../db/dialect.js';

import { insertTemplate, keysTemplate } from '../../db/query-template.js';
import type { RedemptionRow } from './redemptions.presenter.js';
import type { RedemptionTable } from './redemptions.table.js';
import type { Db } from '../../db/engine.js';

export type NewRedemptionRow = Insertable<RedemptionTable>;

export const NO_RELATED_REDEMPTIONS = '{"rollbacks":[],"redemptions":[]}';

/**
 * One statement for a parent and its children (a request writes them together), compiled
 * once per column list and row count (db/sqlite/query-template.ts insertTemplate). A multi-row insert
 * names the union of the rows' columns and SQLite has no DEFAULT in VALUES, so the one column
 * with a default is filled here.
 */
const insertRows = insertTemplate('redemptions');

export async function insertRedemptions(db: Db, rows: NewRedemptionRow[]): Promise<void> {
  await insertRows(
    db,
    rows.map((row) => ({ ...row, related_redemptions: row.related_redemptions ?? NO_RELATED_REDEMPTIONS })),
  );
}

// The records a page of customer events names (redemption-events.service.ts): one read, by key.
const byIds = keysTemplate<string, RedemptionRow>((db, ids) =>
  db.selectFrom('redemptions').selectAll().where('id', 'in', ids),
);

/** Records by id, in no order. */
export const findRedemptionsByIds = (db: Db, ids: readonly string[]): Promise<RedemptionRow[]> => byIds(db, ids);

export const findRedemptionById = (db: Db, id: string): Promise<RedemptionRow | undefined> =>
  db.selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * A voucher's records: those related to its id that name it as their voucher (sql/0029: on
 * redemptions_related_object, which holds voucher_id, so the walk and the count read the index
 * alone).
 */
const ofVoucher = (db: Db, voucherId: string) =>
  db.selectFrom('redemptions').where('related_object_id', '=', voucherId).where('voucher_id', '=', voucherId);

/** A voucher's redemption records, newest first: `limit` of them after the `offset` newest. */
export const listVoucherRedemptions = (
  db: Db,
  voucherId: string,
  limit: number,
  offset = 0,
): Promise<RedemptionRow[]> =>
  ofVoucher(db, voucherId)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();

export const countVoucherRedemptions = async (db: Db, voucherId: string): Promise<number> =>
  Number(
    (
      await ofVoucher(db, voucherId)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

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

/**
 * THE rollback guard: a successful redemption becomes ROLLED_BACK and records its rollback in
 * `related_redemptions.rollbacks`, in one statement that only a SUCCEEDED row passes, so of
 * any number of concurrent rollbacks exactly one changes it. Undefined when it was not
 * SUCCEEDED (rolled back already). The append is the engine's own JSON function
 * (db/dialect.ts): Kysely's builder has none.
 */
export const markRolledBack = (
  db: Db,
  id: string,
  rollback: { id: string; date: string; rollback_order_mode: string },
): Promise<RedemptionRow | undefined> =>
  db
    .updateTable('redemptions')
    .set({
      status: 'ROLLED_BACK',
      related_redemptions: dialectOf(db).jsonAppend('related_redemptions', 'rollbacks', JSON.stringify(rollback)),
    })
    .where('id', '=', id)
    .where('object', '=', 'redemption')
    .where('status', '=', 'SUCCEEDED')
    .returningAll()
    .executeTakeFirst();

/** A parent's children in the order they were written (on the parent index). */
export const listChildRedemptions = (db: Db, parentId: string): Promise<RedemptionRow[]> =>
  db
    .selectFrom('redemptions')
    .selectAll()
    .where('parent_id', '=', parentId)
    .where('object', '=', 'redemption')
    .orderBy('created_at')
    .orderBy('seq')
    .execute();
