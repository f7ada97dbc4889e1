import { directReads } from './direct-reads.js';
import type { Db } from './engine.js';

/**
 * A read whose answer is kept in memory until any connection commits to the file (docs/performance.md "Hot
 * paths"): for what every validation and redemption reads and almost nothing writes (the
 * stacking rules, when the next session lock expires). The check is the handle's direct
 * reads' data version (db/direct-reads.ts; SQLite's `PRAGMA data_version`), read once per read snapshot (db/sqlite/read-snapshot.ts), so a commit by any
 * process, or by this process's own writer, is seen by the very next read.
 *
 * Only a handle with a reader connection of its own (the API server's) keeps answers: there
 * every commit, its own writer's included, changes the data_version its reader sees. Any other
 * handle, a transaction included, reads every time, so a write transaction sees its own writes.
 * The answer is shared by every caller: it must not be changed (freeze it).
 */
export function versionedRead<T>(read: (db: Db) => Promise<T>): VersionedRead<T> {
  const kept = new WeakMap<Db, { version: number; value: T }>();
  const current = async (db: Db): Promise<T> => {
    const direct = directReads(db);
    if (!direct) return read(db);
    const version = direct.dataVersion();
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
