import { versionedRead } from '../../db/versioned-cache.js';
import { sameSecret, secretMatches } from '../../lib/secrets.js';
import * as repo from './auth.repository.js';
import type { Db } from '../../db/engine.js';

/** A key row as authentication reads it, its origins parsed once; null: no key with that id. */
export interface CachedKey {
  row: repo.ApiKeyRow;
  origins: string[];
  /** The token that matched the row's hash, once one did: dropped with the row. */
  verified?: Buffer;
}

/** A bearer token's row (by its hash) with its key's name, limits and revocation; null: unknown. */
export type CachedToken = NonNullable<Awaited<ReturnType<typeof repo.findOAuthToken>>>;

interface AuthCache {
  keys: Map<string, CachedKey | null>;
  /** By token hash. */
  tokens: Map<string, CachedToken | null>;
}

/** Unknown ids are remembered too (a client retrying a wrong id); past this many, start over. */
const MAX_CACHED = 10_000;

/**
 * The maps of the keys' current version (db/versioned-cache.ts): on SQLite any commit to the
 * file starts them empty; on PostgreSQL a committed key change announced by any server
 * (announceChange 'keys'), or their time to live. A handle that keeps nothing gets fresh maps
 * each time.
 */
const current = versionedRead('keys', async (): Promise<AuthCache> => ({ keys: new Map(), tokens: new Map() }));

async function remembered<T>(map: Map<string, T | null>, id: string, read: () => Promise<T | null>): Promise<T | null> {
  let value = map.get(id);
  if (value === undefined) {
    value = await read();
    if (map.size >= MAX_CACHED) map.clear();
    map.set(id, value);
  }
  return value;
}

/**
 * The key rows authentication reads, from memory (docs/performance.md "Hot paths"): one `PRAGMA
 * data_version` per request instead of a key lookup. Any commit by another connection
 * (`promo keys revoke` or `promo keys create` in another process; with the API's reader
 * connection, this process's own writer too) changes the data_version the read sees, and the
 * map is dropped before the request looks in it, so a revocation anywhere stops the very next
 * request. Every other commit drops the map as well: the next request per key then reads its
 * row again, as every request did before.
 */
export async function cachedKey(db: Db, appId: string): Promise<CachedKey | null> {
  return remembered((await current(db)).keys, appId, async () => {
    const row = await repo.findApiKey(db, appId);
    return row ? { row, origins: JSON.parse(row.origins) as string[] } : null;
  });
}

/**
 * The key row as the last request that looked found it (null: no such key then; undefined:
 * nobody looked since the maps were last dropped), read nothing: it may be out of date, so it
 * only says which credentials were good a moment ago (middleware auth's first look).
 */
export function lastKnownKey(db: Db, appId: string): CachedKey | null | undefined {
  return current.lastKept(db)?.keys.get(appId);
}

/** A bearer token's row as last read, the same way as lastKnownKey. */
export function lastKnownToken(db: Db, tokenHash: string): CachedToken | null | undefined {
  return current.lastKept(db)?.tokens.get(tokenHash);
}

/**
 * A bearer token's row, from the same maps and the same data_version check as the keys: a
 * token (or its key) revoked anywhere is read again by the very next request. Expiry is time,
 * not a write: the caller checks it on every request.
 */
export async function cachedToken(db: Db, tokenHash: string): Promise<CachedToken | null> {
  return remembered(
    (await current(db)).tokens,
    tokenHash,
    async () => (await repo.findOAuthToken(db, tokenHash)) ?? null,
  );
}

/**
 * Whether a token opens a cached key: the first match is hashed and compared with the stored
 * hash; later requests compare with that token in constant time instead of hashing
 * (docs/performance.md "Hot paths"). The token lives only as long as the cached row, so a revoked or rotated key
 * reads its row (and its hash) again on the very next request.
 */
export function keyTokenMatches(key: CachedKey, token: string): boolean {
  if (key.verified) return sameSecret(token, key.verified);
  if (!secretMatches(token, key.row.token_hash)) return false;
  key.verified = Buffer.from(token);
  return true;
}
