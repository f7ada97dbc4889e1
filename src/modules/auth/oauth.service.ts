import type { Deps } from '../../app/deps.js';
import { isoNow } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { randomBase62 } from '../../lib/ids.js';
import { hashSecret } from '../../lib/secrets.js';
import { lockEveryApiKey } from '../../db/locks.js';
import * as repo from './auth.repository.js';
import { announceChange } from '../../db/versioned-cache.js';
import { cachedToken, lastKnownToken, type CachedToken } from './keys.cache.js';
import { scopeNames, type TokenBody, type TokenRequest } from './oauth.schemas.js';

type OAuthDeps = Pick<Deps, 'db' | 'clock'>;

export const TOKEN_LIFETIME_SECONDS = 900;
/** The reference's cap on live tokens per project (one project here: the whole database). */
export const MAX_LIVE_TOKENS = 1000;

export interface OAuthToken {
  access_token: string;
  client_id: string;
  expires_at: number;
  expires_in: number;
  scope: string;
  token_type: 'Bearer';
}

export type Introspection =
  | (Omit<OAuthToken, 'access_token'> & { access_token: string; active: true })
  | { active: false };

export interface TokenHolder {
  app_id: string;
  name: string;
  scopes: string[];
  /** The key's requests per minute; null: the server's default. */
  rate_limit: number | null;
}

const nowSeconds = (deps: OAuthDeps): number => Math.floor(deps.clock.now().getTime() / 1000);

/** POST /v1/oauth/token: grant_type client_credentials, for the server key that asks. */
export async function issueToken(deps: OAuthDeps, appId: string, request: TokenRequest): Promise<OAuthToken> {
  const scopes = scopeNames(request.scope);
  const accessToken = randomBase62(48);
  const now = nowSeconds(deps);
  const expiresAt = now + TOKEN_LIFETIME_SECONDS;
  const row = {
    token_hash: hashSecret(accessToken),
    app_id: appId,
    scope: scopes.join(' '),
    created_at: isoNow(deps.clock),
    expires_at: expiresAt,
    revoked_at: null,
  };
  // The count and the insert share one write transaction: on SQLite its BEGIN IMMEDIATE holds
  // the write lock, on PostgreSQL it locks every key's row before counting, so concurrent
  // issues (in this process or another server) cannot both pass.
  const issued = await deps.db.transaction().execute(async (trx) => {
    await lockEveryApiKey(trx);
    await repo.deleteDeadOAuthTokens(trx, now);
    if ((await repo.countLiveOAuthTokens(trx, now)) >= MAX_LIVE_TOKENS) return false;
    await repo.insertOAuthToken(trx, row);
    return true;
  });
  if (!issued) {
    throw new AppError(
      'token_limit_reached',
      `At most ${MAX_LIVE_TOKENS} tokens may be live at once; revoke some or wait for them to expire`,
    );
  }
  return {
    access_token: accessToken,
    client_id: appId,
    expires_at: expiresAt,
    expires_in: TOKEN_LIFETIME_SECONDS,
    scope: scopes.join(' '),
    token_type: 'Bearer',
  };
}

/**
 * A token is live while unexpired, unrevoked and its key unrevoked. Its row comes from the
 * authentication cache (keys.cache.ts: dropped whenever another connection commits); its
 * expiry is checked here, on every request.
 */
const isLive = (deps: OAuthDeps, row: CachedToken): boolean =>
  row.revoked_at === null && row.key_revoked_at === null && row.expires_at > nowSeconds(deps);

async function findLiveToken(deps: OAuthDeps, accessToken: string): Promise<CachedToken | undefined> {
  const row = await cachedToken(deps.db, hashSecret(accessToken));
  return row && isLive(deps, row) ? row : undefined;
}

/** POST /v1/oauth/introspect. Unknown, expired and revoked tokens are `{active: false}`. */
export async function introspectToken(
  deps: OAuthDeps,
  { access_token: accessToken }: TokenBody,
): Promise<Introspection> {
  const row = await findLiveToken(deps, accessToken);
  if (!row) return { active: false };
  return {
    access_token: accessToken,
    client_id: row.app_id,
    expires_at: row.expires_at,
    expires_in: row.expires_at - nowSeconds(deps),
    scope: row.scope,
    token_type: 'Bearer',
    active: true,
  };
}

/**
 * POST /v1/oauth/token/revoke. As RFC 7009 asks, a token that is unknown or no longer live
 * gets the same answer as one revoked now: a retry is safe, and the answer tells nobody
 * whether a token existed.
 */
export async function revokeToken(deps: OAuthDeps, { access_token: accessToken }: TokenBody): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await announceChange(trx, 'keys');
    await repo.revokeOAuthToken(trx, hashSecret(accessToken), isoNow(deps.clock), nowSeconds(deps));
  });
}

const holderOf = (row: CachedToken | undefined): TokenHolder | undefined =>
  row && { app_id: row.app_id, name: row.name, scopes: row.scope.split(' '), rate_limit: row.rate_limit };

/** The key and scopes behind a bearer token, if it is live. */
export async function authenticateBearer(deps: OAuthDeps, accessToken: string): Promise<TokenHolder | undefined> {
  return holderOf(await findLiveToken(deps, accessToken));
}

/**
 * The same from memory only, reading nothing (as keys.service's recentlyAuthenticatedKey): the
 * token as the last check found it. Undefined is only "not known good".
 */
export function recentlyAuthenticatedBearer(deps: OAuthDeps, accessToken: string): TokenHolder | undefined {
  const row = lastKnownToken(deps.db, hashSecret(accessToken));
  return holderOf(row && isLive(deps, row) ? row : undefined);
}
