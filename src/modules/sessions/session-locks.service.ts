import type { Deps } from '../../app/deps.js';
import { isoNow } from '../../lib/clock.js';
import { SESSION_TTL_UNIT_MS as UNIT_MS, type SessionTtlUnit } from '../../lib/enums.js';
import { AppError } from '../../lib/errors.js';
import * as repo from './session-locks.repository.js';
import { announceChange, versionedRead } from '../../db/versioned-cache.js';
import type { Db, Tx } from '../../db/engine.js';
import { lockOrder } from '../../db/locks.js';

export type { Reservation } from './session-locks.repository.js';

/**
 * SESSION LOCKS (voucherify-facts 1.17 `session`; issue 13 point 2). A validation with
 * `session {type: LOCK}` holds what it would take (lockSession); a redemption with the same key
 * consumes it (consumeSession: the held amounts are given back and its own guarded claims take
 * them at once, in the same transaction); a lock past its expiry is dropped lazily by the next
 * validation or redemption (releaseExpiredLocks, a few per request) and by the sweep. Locks and
 * reservations are rows, so they survive a restart.
 *
 * One request at a time per key (withSessionKey): a second one while the first runs is
 * refused with 400 multiple_requests. The claim is a guarded upsert committed before the work,
 * so it holds across processes; a claim left by a process that died expires after BUSY_MS.
 */
type SessionDeps = Pick<Deps, 'db' | 'clock'>;

export const BUSY_MS = 10_000;

export type TtlUnit = SessionTtlUnit;

/** When a lock of this ttl taken at `at` expires (whole milliseconds, rounded up). */
export function lockExpiry(at: string, ttl: number, unit: TtlUnit): string {
  return new Date(new Date(at).getTime() + Math.ceil(ttl * UNIT_MS[unit])).toISOString();
}

export async function withSessionKey<T>(deps: SessionDeps, key: string | null, work: () => Promise<T>): Promise<T> {
  if (key === null) return work();
  const now = deps.clock.now();
  const busyUntil = new Date(now.getTime() + BUSY_MS).toISOString();
  const claimed = await deps.db.transaction().execute(async (trx) => {
    const claim = await repo.claimKey(trx, key, now.toISOString(), busyUntil);
    // A new row's expiry is now: it may come before the first one other servers keep.
    if (claim?.made) await announceChange(trx, 'session_locks');
    return claim;
  });
  if (!claimed) throw new AppError('multiple_requests', `Another request on session ${key} is running`);
  let refused = true;
  try {
    const result = await work();
    refused = false;
    return result;
  } finally {
    // A refused request leaves no trace: a row its claim made goes (house rule: a refusal leaves the database as it was, docs/api.md "Limits").
    await deps.db
      .transaction()
      .execute((trx) =>
        refused && claimed.made ? repo.dropClaim(trx, key, busyUntil) : repo.clearBusy(trx, key, busyUntil),
      );
  }
}

/**
 * Gives back everything the session holds: claimed first (taken out of the table), then the
 * counters, vouchers and rewards in id order (db/locks.ts: one order across promo).
 */
async function giveBack(trx: Tx, key: string): Promise<void> {
  const held = (await repo.takeReservations(trx, key)).sort((a, b) => lockOrder(a.target_id, b.target_id));
  for (const reservation of held) await repo.unreserve(trx, reservation);
}

/** Gives back everything the session holds and forgets it. */
async function dropLock(trx: Tx, key: string): Promise<void> {
  await giveBack(trx, key);
  await repo.deleteLock(trx, key);
}

/**
 * Drops up to `limit` expired locks (inside the caller's transaction); how many it dropped.
 * Each lock is claimed (deleted while still expired) before its reservations are given back:
 * a lock another server dropped or a request claimed again since the list was read is left.
 */
export async function releaseExpiredLocks(trx: Tx, at: string, limit = 20): Promise<number> {
  let dropped = 0;
  for (const key of await repo.listExpiredKeys(trx, at, limit)) {
    if (!(await repo.claimExpiredLock(trx, key, at))) continue;
    await giveBack(trx, key);
    dropped++;
  }
  return dropped;
}

/**
 * When the first lock expires, kept until it may have moved earlier (db/versioned-cache.ts):
 * an expiry set (setExpiry) or a new row announces 'session_locks'; a lock deleted does not,
 * since the kept expiry is then only too early, which costs one read that finds nothing.
 */
const nextLockExpiry = versionedRead('session_locks', repo.firstLockExpiry);

/** Sets the lock's expiry, and says so to the servers that keep the first one. */
async function setExpiry(trx: Tx, key: string, expiresAt: string, at: string): Promise<void> {
  await announceChange(trx, 'session_locks');
  await repo.setExpiry(trx, key, expiresAt, at);
}

/**
 * Whether any lock has expired, from what is committed (outside a transaction: the reader
 * connection): none before the first expiry, which is kept in memory until the next commit;
 * past it, one read. A request that finds none skips releaseExpiredLocks in its write
 * transaction (a lock made by a transaction not yet committed expires only after it is).
 */
export async function anyExpiredLocks(db: Db, at: string): Promise<boolean> {
  const next = await nextLockExpiry(db);
  if (next === null || at < next) return false;
  return (await repo.listExpiredKeys(db, at, 1)).length > 0;
}

/**
 * releaseExpiredLocks for a request that writes nothing else (a validation): a write
 * transaction of its own only when a lock has expired and no request runs on it.
 */
export async function releaseExpiredLocksIfAny(deps: Pick<Deps, 'db'>, at: string): Promise<void> {
  if (!(await anyExpiredLocks(deps.db, at))) return;
  await deps.db.transaction().execute((trx) => releaseExpiredLocks(trx, at));
}

/** A redemption on the key: what the session held is given back for the redemption's own claims. */
export async function consumeSession(trx: Tx, key: string, at: string): Promise<void> {
  await giveBack(trx, key);
  // The row stays (its request's claim with it) until the lazy release or the sweep drops it.
  await setExpiry(trx, key, at, at);
}

/**
 * The manual release of one voucher's lock (DELETE /v1/vouchers/{code}/sessions/{key}; the
 * reference: "for vouchers only"): what the session holds of the voucher is given back; a
 * session left holding no other voucher is dropped whole, with a reward unit it held for a
 * card (a reservation does not say which card it was for). Refused as the other requests on
 * the key are while one runs (400 multiple_requests). False: no live lock by that key.
 */
export async function releaseVoucherLock(trx: Tx, key: string, voucherId: string, at: string): Promise<boolean> {
  const lock = await repo.findLiveLock(trx, key, at);
  if (!lock) return false;
  if (lock.busy_until !== null && lock.busy_until > at)
    throw new AppError('multiple_requests', `Another request on session ${key} is running`);
  const held = (await repo.listReservations(trx, key)).filter((r) => r.kind !== 'REWARD');
  if (held.every((r) => r.target_id === voucherId)) {
    await dropLock(trx, key);
    return true;
  }
  for (const reservation of held) if (reservation.target_id === voucherId) await repo.unreserve(trx, reservation);
  await repo.deleteVoucherReservations(trx, key, voucherId);
  return true;
}

/** A validation on the key sees what its own session holds as free (it is about to hold it anew). */
export const setAsideSession = (trx: Tx, key: string): Promise<void> => giveBack(trx, key);

/**
 * Holds `reservations` for the session until `expiresAt`, replacing what it held before (a
 * key sent again overwrites its session). Returns the first reservation that could not be
 * held (another request took it meanwhile), or null; the caller's transaction then rolls back.
 */
export async function lockSession(
  trx: Tx,
  lock: { key: string; expiresAt: string; at: string },
  reservations: repo.Reservation[],
): Promise<repo.Reservation | null> {
  await giveBack(trx, lock.key);
  await setExpiry(trx, lock.key, lock.expiresAt, lock.at);
  for (const reservation of reservations) if (!(await repo.reserve(trx, reservation))) return reservation;
  await repo.insertReservations(trx, lock.key, reservations);
  return null;
}

/** The sweep (src/root/sweep-registry.ts): every expired lock, in batches of `batch`. */
export async function expireSessionLocks(deps: SessionDeps, signal?: AbortSignal, batch = 500): Promise<number> {
  let done = 0;
  for (;;) {
    if (signal?.aborted) return done;
    const at = isoNow(deps.clock);
    const dropped = await deps.db.transaction().execute((trx) => releaseExpiredLocks(trx, at, batch));
    done += dropped;
    if (dropped < batch) return done;
  }
}
