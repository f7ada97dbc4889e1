import { dialectOf } from '../../db/dialect.js';
import type { Insertable } from 'kysely';
import { NEVER_EXPIRES } from './ledger.types.js';
import { CARD_FIELDS, type CardFields } from './ledgers.repository.js';
import type { LedgerEntryTable } from './ledgers.table.js';
import type { Db } from '../../db/engine.js';

/** The expiry sweep's set-based statements: each serves a whole batch of buckets. */

export interface ClaimedBucket {
  id: string;
  voucher_id: string;
  expires_on: string;
  expired_points: number;
}

/**
 * Claims up to `limit` due buckets (ACTIVE, last day before `today`, soonest first through
 * points_buckets_due) in one guarded statement: ACTIVE -> EXPIRED, their points moved to
 * expired_points. The outer `status = 'ACTIVE'` is the guard: a bucket another process
 * claimed first is not returned, so each expires once. The pick is a materialized CTE, read
 * once: as a plain `IN (subquery)`, PostgreSQL may rescan the pick for each row it updates, and
 * a rescan skips (SKIP LOCKED) the rows this statement already changed and takes the next ones,
 * so the batch would grow past `limit` to every due bucket.
 */
export const claimDueBuckets = (db: Db, today: string, at: string, limit: number): Promise<ClaimedBucket[]> =>
  db
    .with(
      (cte) => cte('due').materialized(),
      (qb) =>
        qb
          .selectFrom('points_buckets')
          .select('id')
          .where('status', '=', 'ACTIVE')
          .where('expires_on', '<', today)
          .orderBy('expires_on')
          .limit(limit)
          // Two servers sweeping at once take different buckets instead of one waiting for the other's.
          .$if(dialectOf(db).name === 'postgres', (q) => q.forUpdate().skipLocked()),
    )
    .updateTable('points_buckets')
    .set((eb) => ({ status: 'EXPIRED', expired_points: eb.ref('total_points'), total_points: 0, updated_at: at }))
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .where('status', '=', 'ACTIVE')
    .returning(['id', 'voucher_id', 'expires_on', 'expired_points'])
    .execute();

export const findCards = (db: Db, voucherIds: string[]): Promise<CardFields[]> =>
  voucherIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('vouchers').select(CARD_FIELDS).where('id', 'in', voucherIds).execute();

export async function insertEntries(db: Db, rows: Array<Insertable<LedgerEntryTable>>): Promise<void> {
  if (rows.length > 0) await db.insertInto('ledger_entries').values(rows).execute();
}

/**
 * Sets each card's next expiration (its soonest bucket with points) from its buckets, in one
 * statement for the batch; returns the cards' new figures.
 */
export function refreshNextExpirations(db: Db, voucherIds: string[]) {
  if (voucherIds.length === 0) return Promise.resolve([]);
  return db
    .updateTable('vouchers')
    .set((eb) => {
      const soonest = eb
        .selectFrom('points_buckets as b')
        .whereRef('b.voucher_id', '=', 'vouchers.id')
        .where('b.status', '=', 'ACTIVE')
        .where('b.total_points', '>', 0)
        .where('b.expires_on', '<', NEVER_EXPIRES)
        .orderBy('b.expires_on')
        .limit(1);
      return {
        loyalty_next_expiration_date: soonest.select('b.expires_on'),
        loyalty_next_expiration_points: eb.fn.coalesce(soonest.select('b.total_points'), eb.val(0)),
      };
    })
    .where('id', 'in', voucherIds)
    .returning(['id', 'loyalty_next_expiration_date', 'loyalty_next_expiration_points'])
    .execute();
}
