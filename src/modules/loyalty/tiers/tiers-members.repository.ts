import type { Insertable, Selectable } from 'kysely';
import { queryTemplate } from '../../../db/query-template.js';
import type { MemberTierTable } from './tiers.table.js';
import type { Db } from '../../../db/engine.js';

export type MemberTierRow = Selectable<MemberTierTable>;

// Read on every points change of a card (the tier recomputation): built once, not per change.
const memberTierRow = queryTemplate<{ voucher_id: string }, MemberTierRow>((db, param) =>
  db.selectFrom('loyalty_member_tiers').selectAll().where('voucher_id', '=', param('voucher_id')),
);

export const findMemberTierRow = async (db: Db, voucherId: string): Promise<MemberTierRow | undefined> =>
  (await memberTierRow(db, { voucher_id: voucherId }))[0];

/** The card's tier now: one row per card, replaced whole. */
export const saveMemberTier = async (db: Db, row: Insertable<MemberTierTable>): Promise<void> => {
  await db
    .insertInto('loyalty_member_tiers')
    .values(row)
    .onConflict((oc) =>
      oc.column('voucher_id').doUpdateSet({
        tier_id: row.tier_id,
        customer_id: row.customer_id,
        start_date: row.start_date,
        expiration_date: row.expiration_date,
        updated_at: row.updated_at,
      }),
    )
    .execute();
};

export const deleteMemberTier = async (db: Db, voucherId: string): Promise<void> => {
  await db.deleteFrom('loyalty_member_tiers').where('voucher_id', '=', voucherId).execute();
};

/** The holders of cards in a tier (through loyalty_member_tiers_tier). */
export const listTierHolders = async (db: Db, tierId: string): Promise<string[]> =>
  (
    await db
      .selectFrom('loyalty_member_tiers')
      .select('customer_id')
      .where('tier_id', '=', tierId)
      .where('customer_id', 'is not', null)
      .execute()
  ).map((row) => row.customer_id as string);
