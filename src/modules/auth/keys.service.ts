import { randomUUID } from 'node:crypto';
import type { Deps } from '../../app/deps.js';
import type { KeyFromEnv } from '../../app/config.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import { hashSecret, newSecret } from '../../lib/secrets.js';
import * as repo from './auth.repository.js';
import { announceChange } from '../../db/versioned-cache.js';
import { cachedKey, keyTokenMatches, lastKnownKey, type CachedKey } from './keys.cache.js';

type KeyDeps = Pick<Deps, 'db' | 'clock'>;
export type KeyKind = 'server' | 'client';

/** A key as `promo keys list` shows it: never the secret. */
export interface KeyView {
  app_id: string;
  kind: KeyKind;
  name: string;
  origins: string[];
  created_at: string;
  revoked_at: string | null;
  rate_limit: number | null;
}

/** A key as shown once, at creation: with its secret. */
export interface CreatedKey extends KeyView {
  app_token: string;
}

export interface AuthenticatedKey {
  app_id: string;
  name: string;
  origins: string[];
  /** Requests per minute; null: the server's default. */
  rate_limit: number | null;
}

const present = (row: repo.ApiKeyRow): KeyView => ({
  app_id: row.app_id,
  kind: row.kind,
  name: row.name,
  origins: JSON.parse(row.origins) as string[],
  created_at: row.created_at,
  revoked_at: row.revoked_at,
  rate_limit: row.rate_limit,
});

function checkOrigins(origins: string[]): string[] {
  const cleaned = origins.map((o) => o.trim()).filter(Boolean);
  if (cleaned.length === 0) throw new AppError('invalid_origins', 'Give at least one origin, or *');
  return cleaned;
}

interface NewKey {
  kind: KeyKind;
  name?: string;
  origins?: string[];
  rateLimit?: number;
}

/** A new key's row and its secret, shown once. */
function newKey(deps: KeyDeps, input: NewKey): { row: repo.ApiKeyRow; created: CreatedKey } {
  const token = newSecret();
  const row: repo.ApiKeyRow = {
    app_id: randomUUID(),
    kind: input.kind,
    name: input.name ?? `${input.kind} key`,
    token_hash: hashSecret(token),
    origins: JSON.stringify(input.kind === 'client' ? checkOrigins(input.origins ?? ['*']) : ['*']),
    created_at: isoNow(deps.clock),
    revoked_at: null,
    rate_limit: input.rateLimit ?? null,
  };
  return { row, created: { ...present(row), app_token: token } };
}

export async function createKey(deps: KeyDeps, input: NewKey): Promise<CreatedKey> {
  const { row, created } = newKey(deps, input);
  await repo.insertApiKey(deps.db, row);
  return created;
}

export const listKeys = async (deps: KeyDeps): Promise<KeyView[]> => (await repo.listApiKeys(deps.db)).map(present);

export async function revokeKey(deps: KeyDeps, appId: string): Promise<KeyView> {
  const at = isoNow(deps.clock);
  const { revoked, row } = await deps.db.transaction().execute(async (trx) => {
    // Servers that keep the key in memory drop it once this commits (db/versioned-cache.ts).
    await announceChange(trx, 'keys');
    return { revoked: await repo.revokeApiKey(trx, appId, at), row: await repo.findApiKey(trx, appId) };
  });
  if (!row) throw notFound('api_key', appId);
  if (!revoked) throw new AppError('already_revoked', `Key ${appId} was revoked at ${row.revoked_at}`);
  return present(row);
}

/**
 * Registers the keys given in the environment (PROMO_APP_ID/PROMO_APP_TOKEN and the client
 * pair). When the database has no active key and the environment gives none, creates one
 * server and one client key and returns them, so `serve` can print them once.
 */
export async function bootstrapKeys(
  deps: KeyDeps,
  fromEnv: { serverKey?: KeyFromEnv; clientKey?: KeyFromEnv },
): Promise<CreatedKey[]> {
  const now = isoNow(deps.clock);
  // A key registered again may carry a new secret: servers that keep its row drop it.
  const register = (kind: KeyKind, key: KeyFromEnv) =>
    deps.db.transaction().execute(async (trx) => {
      await announceChange(trx, 'keys');
      await repo.upsertApiKey(trx, {
        app_id: key.appId,
        kind,
        name: `${kind} key from environment`,
        token_hash: hashSecret(key.token),
        origins: JSON.stringify(kind === 'client' ? checkOrigins(key.origins ?? ['*']) : ['*']),
        created_at: now,
        revoked_at: null,
        rate_limit: null,
      });
    });
  if (fromEnv.serverKey) await register('server', fromEnv.serverKey);
  if (fromEnv.clientKey) await register('client', fromEnv.clientKey);
  if (fromEnv.serverKey || fromEnv.clientKey) return [];
  // The look and the inserts in one write transaction: servers starting on one new database at
  // once create the first pair once (the others find it). There is no row to lock before the
  // first key, so on PostgreSQL the transaction is SERIALIZABLE: of two that both counted none,
  // one fails (40001) and is re-run whole, and finds the pair. SQLite's one writer is serial already.
  return deps.db
    .transaction()
    .setIsolationLevel('serializable')
    .execute(async (trx) => {
      if ((await repo.countActiveApiKeys(trx)) > 0) return [];
      const first = [
        newKey(deps, { kind: 'server', name: 'first server key' }),
        newKey(deps, { kind: 'client', name: 'first client key' }),
      ];
      for (const { row } of first) await repo.insertApiKey(trx, row);
      return first.map((k) => k.created);
    });
}

function keyOpens(key: CachedKey | null | undefined, kind: KeyKind, token: string): AuthenticatedKey | undefined {
  const row = key?.row;
  if (!key || !row || row.kind !== kind || row.revoked_at !== null) return undefined;
  if (!keyTokenMatches(key, token)) return undefined;
  return { app_id: row.app_id, name: row.name, origins: key.origins, rate_limit: row.rate_limit };
}

/** The key with this id and secret, if it is active and of this kind. */
export async function authenticateKey(
  deps: KeyDeps,
  kind: KeyKind,
  appId: string,
  token: string,
): Promise<AuthenticatedKey | undefined> {
  return keyOpens(await cachedKey(deps.db, appId), kind, token);
}

/**
 * The same from memory only, reading nothing: the key as the last check found it, so possibly
 * out of date (revoked since by another process). Undefined is no refusal, only "not known
 * good": authenticateKey decides.
 */
export const recentlyAuthenticatedKey = (
  deps: KeyDeps,
  kind: KeyKind,
  appId: string,
  token: string,
): AuthenticatedKey | undefined => keyOpens(lastKnownKey(deps.db, appId), kind, token);
