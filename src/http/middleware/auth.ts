import type { Next } from 'koa';
import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { forbidden, missingPermission, unauthorized } from '../../lib/errors.js';
import {
  authenticateKey,
  recentlyAuthenticatedKey,
  authenticateBearer,
  recentlyAuthenticatedBearer,
  scopesAllowPath,
} from '../../modules/auth/index.js';
import type { AppContext } from '../context.js';

const isOAuthPath = (path: string) => path.startsWith('/v1/oauth/');
const isClientPath = (path: string) => path === '/client/v1' || path.startsWith('/client/v1/');
// The management API (stacking rules) is the project's own settings: server keys open it too.
const isServerPath = (path: string) => path === '/v1' || path.startsWith('/v1/') || path.startsWith('/management/v1/');

type Side = 'server' | 'client';

/**
 * How credentials are looked up: `current` reads the key (authoritative, in the request's read
 * snapshot); `recent` takes the key as the last check found it, from memory, reading nothing.
 */
type Check = 'current' | 'recent';

const keyOf = async (deps: Deps, check: Check, kind: Side, appId: string, token: string) =>
  check === 'recent' ? recentlyAuthenticatedKey(deps, kind, appId, token) : authenticateKey(deps, kind, appId, token);

const holderOf = async (deps: Deps, check: Check, token: string) =>
  check === 'recent' ? recentlyAuthenticatedBearer(deps, token) : authenticateBearer(deps, token);

async function serverKeyActor(deps: Deps, ctx: AppContext, check: Check): Promise<Actor> {
  const key = await keyOf(deps, check, 'server', ctx.get('X-App-Id'), ctx.get('X-App-Token'));
  if (!key) throw unauthorized('Invalid X-App-Id or X-App-Token');
  ctx.state.keyRateLimit = key.rate_limit;
  return { channel: 'API', api_key: { name: key.name, app_id: key.app_id }, request_id: ctx.state.requestId };
}

async function clientKeyActor(deps: Deps, ctx: AppContext, check: Check): Promise<Actor> {
  const key = await keyOf(deps, check, 'client', ctx.get('X-Client-Application-Id'), ctx.get('X-Client-Token'));
  if (!key) throw unauthorized('Invalid X-Client-Application-Id or X-Client-Token');
  const origin = ctx.get('Origin');
  if (!origin) throw forbidden('Client-side requests need an origin header');
  if (!key.origins.includes('*') && !key.origins.includes(origin)) {
    throw forbidden(`Origin ${origin} is not allowed for this client key`);
  }
  ctx.state.keyRateLimit = key.rate_limit;
  return { channel: 'CLIENT_API', api_key: { name: key.name, app_id: key.app_id }, request_id: ctx.state.requestId };
}

async function bearerActor(deps: Deps, ctx: AppContext, side: Side, token: string, check: Check): Promise<Actor> {
  const holder = await holderOf(deps, check, token);
  if (!holder) throw unauthorized('Invalid or expired access token');
  if (!scopesAllowPath(holder.scopes, ctx.path)) {
    throw missingPermission(`The token's scope (${holder.scopes.join(' ')}) does not open ${ctx.path}`);
  }
  ctx.state.keyRateLimit = holder.rate_limit;
  return {
    channel: side === 'client' ? 'CLIENT_API' : 'API',
    api_key: { name: holder.name, app_id: holder.app_id },
    request_id: ctx.state.requestId,
  };
}

/** Why a request with no usable credentials for its side is refused. */
function refusal(ctx: AppContext, side: Side): Error {
  if (side === 'server' && ctx.get('X-Client-Application-Id'))
    return unauthorized('Client-side keys open only /client/v1 paths');
  if (side === 'client' && ctx.get('X-App-Id')) return unauthorized('Server-side keys open only /v1 paths');
  if (side === 'client')
    return unauthorized('Send X-Client-Application-Id and X-Client-Token, or an OAuth bearer token');
  if (isOAuthPath(ctx.path)) return unauthorized('Send X-App-Id and X-App-Token');
  return unauthorized('Send X-App-Id and X-App-Token, or an OAuth bearer token');
}

/** The actor behind a request to /v1 or /client/v1, or the refusal. */
async function actorOf(deps: Deps, ctx: AppContext, side: Side, check: Check): Promise<Actor> {
  if (side === 'server' && ctx.get('X-App-Id')) return serverKeyActor(deps, ctx, check);
  if (side === 'client' && ctx.get('X-Client-Application-Id')) return clientKeyActor(deps, ctx, check);
  const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
  // The OAuth endpoints themselves take server keys only.
  if (bearer && !isOAuthPath(ctx.path)) return bearerActor(deps, ctx, side, bearer, check);
  throw refusal(ctx, side);
}

const sideOf = (path: string): Side | undefined =>
  isServerPath(path) ? 'server' : isClientPath(path) ? 'client' : undefined;

/**
 * Server keys (or a bearer token) open /v1, client keys (or a bearer token) open /client/v1.
 * Everything else (/health, unknown paths) is public, so an unknown path is a plain 404.
 *
 * Two steps, around the body. `admit`, from the headers alone, before any body is read: a
 * request without credentials that open its path is refused there, its body unread, so an
 * unauthenticated client cannot make the server hold its body. Credentials the last check
 * found good are admitted from memory, reading nothing; any others are checked at once.
 * `authenticate`, once the body is read: the authoritative check, in the read snapshot the
 * route's own reads share (a body mostly arrives a tick after its headers; one snapshot per
 * request keeps the statement budget), so a key revoked meanwhile is still refused.
 */
export function authMiddleware(deps: Deps) {
  return {
    async admit(ctx: AppContext, next: Next): Promise<void> {
      const side = sideOf(ctx.path);
      if (side)
        ctx.state.actor = await actorOf(deps, ctx, side, 'recent').catch(() => actorOf(deps, ctx, side, 'current'));
      await next();
    },
    async authenticate(ctx: AppContext, next: Next): Promise<void> {
      const side = sideOf(ctx.path);
      if (side) ctx.state.actor = await actorOf(deps, ctx, side, 'current');
      await next();
    },
  };
}
