import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import * as repo from './auth.repository.js';

type Db = Kysely<Database>;

/** A key row as authentication reads it, its origins parsed once; null: no key with that id. */
export interface CachedKey {
  row: repo.ApiKeyRow;
  origins: string[];
}

interface KeyCache {
  /** The connection's data_version when the map was filled. */
  version: number;
  keys: Map<string, CachedKey | null>;
}

/** Unknown ids are remembered too (a client retrying a wrong id); past this many, start over. */
const MAX_CACHED = 10_000;
const caches = new WeakMap<Db, KeyCache>();

/**
 * The key rows authentication reads, from memory (README "Hot paths"): one `PRAGMA
 * data_version` per request instead of a key lookup. Any commit by another connection
 * (`promo keys revoke` or `promo keys create` in another process; with the API's reader
 * connection, this process's own writer too) changes the data_version the read sees, and the
 * map is dropped before the request looks in it, so a revocation anywhere stops the very next
 * request. Key writes through this module also call forgetKeys, for a handle that reads on
 * its writer (whose own commits leave its data_version alone). Every other commit drops the
 * map as well: the next request per key then reads its row again, as every request did before.
 */
export async function cachedKey(db: Db, appId: string): Promise<CachedKey | null> {
  const version = await repo.dataVersion(db);
  let cache = caches.get(db);
  if (!cache || cache.version !== version) caches.set(db, (cache = { version, keys: new Map() }));
  let key = cache.keys.get(appId);
  if (key === undefined) {
    const row = await repo.findApiKey(db, appId);
    key = row ? { row, origins: JSON.parse(row.origins) as string[] } : null;
    if (cache.keys.size >= MAX_CACHED) cache.keys.clear();
    cache.keys.set(appId, key);
  }
  return key;
}

/** After this connection wrote keys: the next request reads them again. */
export const forgetKeys = (db: Db): void => {
  caches.delete(db);
};
