import { lockingRead } from '../../db/locks.js';
import { queryTemplate } from '../../db/query-template.js';
import type { ReservationKind } from './session-locks.table.js';
import type { Db } from '../../db/engine.js';

/**
 * Session locks' statements. The reservation columns live on vouchers and rewards (sql/0020)
 * beside the counters whose guarded claims count them; they are the locks' own, so only this
 * repository changes them, each by one guarded statement.
 */

export interface Reservation {
  kind: ReservationKind;
  target_id: string;
  amount: number;
}

/**
 * Marks a request running on the key until `busyUntil`, in one guarded upsert: a key that
 * another request holds (busy_until still ahead) is not changed, and undefined comes back.
 * Otherwise it answers whether the claim made the row (its created_at is the claim's and it
 * was not there before). The claim leaves updated_at alone: only the lock's expiry is a change.
 */
export async function claimKey(
  db: Db,
  key: string,
  at: string,
  busyUntil: string,
): Promise<{ made: boolean } | undefined> {
  const existed = await db.selectFrom('session_locks').select('key').where('key', '=', key).executeTakeFirst();
  const row = await db
    .insertInto('session_locks')
    .values({ key, expires_at: at, busy_until: busyUntil, created_at: at })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ busy_until: busyUntil })
        .where((eb) => eb.or([eb('session_locks.busy_until', 'is', null), eb('session_locks.busy_until', '<=', at)])),
    )
    .returning('key')
    .executeTakeFirst();
  return row === undefined ? undefined : { made: existed === undefined };
}

/**
 * Ends the request's claim on the key: only while the claim is still its own (`busyUntil`, as
 * claimKey wrote it). A claim that ran out and was taken by another request stays that one's.
 */
export async function clearBusy(db: Db, key: string, busyUntil: string): Promise<void> {
  await db
    .updateTable('session_locks')
    .set({ busy_until: null })
    .where('key', '=', key)
    .where('busy_until', '=', busyUntil)
    .execute();
}

/**
 * Drops a row that a refused request's claim made and nothing since has held: the database is
 * as it was. Only while the claim is still its own (`busyUntil`), as clearBusy.
 */
export async function dropClaim(db: Db, key: string, busyUntil: string): Promise<void> {
  await db
    .deleteFrom('session_locks')
    .where('key', '=', key)
    .where('busy_until', '=', busyUntil)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('session_reservations')
            .select('session_key')
            .where('session_reservations.session_key', '=', key),
        ),
      ),
    )
    .execute();
}

/** The lock's expiry (the row is made when missing). */
export async function setExpiry(db: Db, key: string, expiresAt: string, at: string): Promise<void> {
  await db
    .insertInto('session_locks')
    .values({ key, expires_at: expiresAt, busy_until: null, created_at: at })
    .onConflict((oc) => oc.column('key').doUpdateSet({ expires_at: expiresAt, updated_at: at }))
    .execute();
}

export const listReservations = (db: Db, key: string): Promise<Reservation[]> =>
  db
    .selectFrom('session_reservations')
    .select(['kind', 'target_id', 'amount'])
    .where('session_key', '=', key)
    .execute();

/**
 * Forgets what the session holds and answers it, in one statement: of two transactions giving
 * back the same session (two servers releasing one expired lock), the second waits for the
 * first and then finds nothing, so each amount is given back once.
 */
export const takeReservations = (db: Db, key: string): Promise<Reservation[]> =>
  db
    .deleteFrom('session_reservations')
    .where('session_key', '=', key)
    .returning(['kind', 'target_id', 'amount'])
    .execute();

/**
 * Deletes the lock by `key` while it is still expired and no request runs on it (as
 * listExpiredKeys found it); false when it no longer is: another transaction dropped it, or a
 * request claimed the key again since the list was read (its new reservations are not ours).
 */
export async function claimExpiredLock(db: Db, key: string, at: string): Promise<boolean> {
  const row = await db
    .deleteFrom('session_locks')
    .where('key', '=', key)
    .where('expires_at', '<=', at)
    .where((eb) => eb.or([eb('busy_until', 'is', null), eb('busy_until', '<=', at)]))
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertReservations(db: Db, key: string, rows: Reservation[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('session_reservations')
      .values(rows.map((r) => ({ ...r, session_key: key })))
      .execute();
}

/**
 * The lock by this key while it holds (not expired, not consumed), with whether a request runs
 * on it; locked until the transaction ends (the session key is the first lock of one order).
 */
export const findLiveLock = (db: Db, key: string, at: string): Promise<{ busy_until: string | null } | undefined> =>
  lockingRead(
    db,
    db.selectFrom('session_locks').select('busy_until').where('key', '=', key).where('expires_at', '>', at),
  ).executeTakeFirst();

/** Forgets what the session holds of one voucher (its quantity, credits and points). */
export async function deleteVoucherReservations(db: Db, key: string, voucherId: string): Promise<void> {
  await db
    .deleteFrom('session_reservations')
    .where('session_key', '=', key)
    .where('target_id', '=', voucherId)
    .where('kind', '!=', 'REWARD')
    .execute();
}

export async function deleteLock(db: Db, key: string): Promise<void> {
  await db.deleteFrom('session_locks').where('key', '=', key).execute();
}

// Every validation and redemption looks for expired locks first: compiled once (docs/performance.md "Hot paths").
const expiredKeys = queryTemplate<{ at: string; limit: number }, { key: string }>((db, param) =>
  db
    .selectFrom('session_locks')
    .select('key')
    .where('expires_at', '<=', param('at'))
    .where((eb) => eb.or([eb('busy_until', 'is', null), eb('busy_until', '<=', param('at'))]))
    .orderBy('expires_at')
    .limit(param('limit')),
);

const firstExpiry = queryTemplate<Record<string, never>, { expires_at: string }>((db) =>
  db.selectFrom('session_locks').select('expires_at').orderBy('expires_at').limit(1),
);

/** When the first lock expires (the head of session_locks_expires); null: no lock. */
export const firstLockExpiry = async (db: Db): Promise<string | null> =>
  (await firstExpiry(db, {}))[0]?.expires_at ?? null;

/** Locks past their expiry that no request is running on, soonest first (session_locks_expires). */
export const listExpiredKeys = async (db: Db, at: string, limit: number): Promise<string[]> =>
  (await expiredKeys(db, { at, limit })).map((r) => r.key);

/**
 * Holds `amount` of a counter for a session, in one guarded statement that counts what other
 * sessions hold: false when not that much is left.
 */
export async function reserve(db: Db, r: Reservation): Promise<boolean> {
  if (r.kind === 'REWARD') {
    const row = await db
      .updateTable('rewards')
      .set((eb) => ({ reserved: eb('reserved', '+', r.amount) }))
      .where('id', '=', r.target_id)
      .where((eb) =>
        eb.or([
          eb('stock', 'is', null),
          eb(
            eb(eb(eb.fn.coalesce('redeemed', eb.lit(0)), '+', eb.ref('reserved')), '+', r.amount),
            '<=',
            eb.ref('stock'),
          ),
        ]),
      )
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }
  const query = db.updateTable('vouchers').where('id', '=', r.target_id);
  const guarded =
    r.kind === 'QUANTITY'
      ? query
          .set((eb) => ({ reserved_quantity: eb('reserved_quantity', '+', r.amount) }))
          .where((eb) =>
            eb.or([
              eb('redemption_quantity', 'is', null),
              eb(
                eb(eb('redeemed_quantity', '+', eb.ref('reserved_quantity')), '+', r.amount),
                '<=',
                eb.ref('redemption_quantity'),
              ),
            ]),
          )
      : r.kind === 'CREDITS'
        ? query
            .set((eb) => ({ reserved_credits: eb('reserved_credits', '+', r.amount) }))
            .where((eb) => eb(eb('gift_balance', '-', eb.ref('reserved_credits')), '>=', r.amount))
        : query
            .set((eb) => ({ reserved_points: eb('reserved_points', '+', r.amount) }))
            .where((eb) => eb(eb('loyalty_balance', '-', eb.ref('reserved_points')), '>=', r.amount));
  return (await guarded.returning('id').executeTakeFirst()) !== undefined;
}

const COLUMN = { QUANTITY: 'reserved_quantity', CREDITS: 'reserved_credits', POINTS: 'reserved_points' } as const;

/** Gives a reservation back (guarded: a column never goes below zero; a deleted target has nothing to give). */
export async function unreserve(db: Db, r: Reservation): Promise<void> {
  if (r.kind === 'REWARD') {
    await db
      .updateTable('rewards')
      .set((eb) => ({ reserved: eb('reserved', '-', r.amount) }))
      .where('id', '=', r.target_id)
      .where('reserved', '>=', r.amount)
      .execute();
    return;
  }
  const column = COLUMN[r.kind];
  await db
    .updateTable('vouchers')
    .set((eb) => ({ [column]: eb(eb.ref(column), '-', r.amount) }))
    .where('id', '=', r.target_id)
    .where(column, '>=', r.amount)
    .execute();
}
