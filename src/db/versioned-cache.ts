import { dialectOf } from './dialect.js';
import { directReads } from './direct-reads.js';
import type { Db, Tx } from './engine.js';
import { sql } from 'kysely';

/**
 * What a versioned read keeps, by the writes that change it: a write of that kind announces
 * it (announceChange), so engines that cannot see every commit (PostgreSQL) drop only the
 * answers it concerns.
 */
export type CacheTopic = 'keys' | 'stacking_rules' | 'session_locks';

/**
 * Where a handle's kept answers learn that they may be out of date, for an engine whose
 * handle has no data version of its own to read (PostgreSQL: db/postgres/cache-listener.ts).
 */
export interface CacheVersions {
  /** A number that moves whenever data of `topic` may have changed (and, as a fallback, with time); undefined: keep nothing now. */
  version(topic: CacheTopic): number | undefined;
}

const versionSources = new WeakMap<Db, CacheVersions>();

export const registerCacheVersions = (db: Db, versions: CacheVersions): void => {
  versionSources.set(db, versions);
};

/** The channel PostgreSQL's announcements go out on; the payload is the topic. */
export const CACHE_CHANNEL = 'promo_cache';

const announced = new WeakMap<Tx, Set<CacheTopic>>();

/**
 * Says, inside the writing transaction, that it changes data of `topic` that versioned reads
 * keep. SQLite needs nothing (every process sees the file's data_version move); on PostgreSQL
 * it is a `pg_notify`, which the server delivers to every listening server only if the
 * transaction commits, and the engine drops this process's own answers once it has committed.
 */
export async function announceChange(trx: Tx, topic: CacheTopic): Promise<void> {
  if (dialectOf(trx).name !== 'postgres') return;
  const topics = announced.get(trx) ?? new Set<CacheTopic>();
  if (topics.has(topic)) return;
  await sql`SELECT pg_notify(${CACHE_CHANNEL}, ${topic})`.execute(trx);
  announced.set(trx, topics.add(topic));
}

/** The topics `trx` announced (for the engine, once it committed). */
export const announcedBy = (trx: Tx): ReadonlySet<CacheTopic> => announced.get(trx) ?? new Set();

/** The number that says whether an answer kept for `db` still holds; undefined: keep nothing. */
function versionOf(db: Db, topic: CacheTopic): number | undefined {
  const source = versionSources.get(db);
  return source ? source.version(topic) : directReads(db)?.dataVersion();
}

/**
 * A read whose answer is kept in memory while the data it reads has not changed (docs/performance.md
 * "Hot paths"): for what every validation and redemption reads and almost nothing writes (the
 * stacking rules, when the next session lock expires, the API keys).
 *
 * On SQLite the check is the handle's direct reads' data version (db/direct-reads.ts; SQLite's
 * `PRAGMA data_version`), read once per read snapshot (db/sqlite/read-snapshot.ts), so a commit
 * by any process, or by this process's own writer, is seen by the very next read. Only a handle
 * with a reader connection of its own (the API server's) keeps answers there.
 *
 * On PostgreSQL the check is the engine's cache versions (db/postgres/cache-listener.ts): the
 * topic's announcements (announceChange, through LISTEN/NOTIFY), and a short time to live in
 * case one was missed; while the listener is not connected, nothing is kept.
 *
 * Any other handle, a transaction included, reads every time, so a write transaction sees its
 * own writes. The answer is shared by every caller: it must not be changed (freeze it).
 */
export function versionedRead<T>(topic: CacheTopic, read: (db: Db) => Promise<T>): VersionedRead<T> {
  const kept = new WeakMap<Db, { version: number; value: T }>();
  const current = async (db: Db): Promise<T> => {
    // Taken before the read: a change announced while it runs leaves the answer already stale.
    const version = versionOf(db, topic);
    if (version === undefined) return read(db);
    const entry = kept.get(db);
    if (entry?.version === version) return entry.value;
    const value = await read(db);
    kept.set(db, { version, value });
    return value;
  };
  return Object.assign(current, { lastKept: (db: Db): T | undefined => kept.get(db)?.value });
}

/**
 * A versioned read, and `lastKept`: the answer it kept last, read nothing, possibly out of
 * date (undefined when it kept none). Only for a guess that is checked again with the current
 * answer before anything relies on it.
 */
export type VersionedRead<T> = ((db: Db) => Promise<T>) & { lastKept(db: Db): T | undefined };

/** An object and the objects and arrays inside it, frozen: an answer versionedRead shares. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
