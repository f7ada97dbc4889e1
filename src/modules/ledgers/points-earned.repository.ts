import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { PointsType } from './ledger.types.js';

/** The ledger types that count as points earned (a tier's POINTS_IN_PERIOD qualification). */
export const EARNED_TYPES: readonly PointsType[] = ['POINTS_ADDITION', 'POINTS_ACCRUAL', 'PENDING_POINTS_ACTIVATION'];

/** Points a card earned from `since` on: its credit rows of EARNED_TYPES, through the card's own rows (ledger_entries_voucher). */
export async function sumPointsEarned(db: Kysely<Database>, voucherId: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta'), eb.lit(0)).as('points'))
    .where('voucher_id', '=', voucherId)
    .where('type', 'in', EARNED_TYPES)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.points);
}
