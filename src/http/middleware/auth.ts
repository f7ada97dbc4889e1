import type { Next } from 'koa';
import type { Deps } from '../../app/deps.js';
import { forbidden, missingPermission, unauthorized } from '../../lib/errors.js';
import { authenticateKey } from '../../modules/auth/keys.service.js';
import { authenticateBearer } from '../../modules/auth/oauth.service.js';
import { scopesAllowPath } from '../../modules/auth/scopes.js';
import type { AppContext } from '../context.js';

const isOAuthPath = (path: string) => path.startsWith('/v1/oauth/');
const isClientPath = (path: string) => path === '/client/v1' || path.startsWith('/client/v1/');
const isServerPath = (path: string) => path === '/v1' || path.startsWith('/v1/');

function originAllowed(origins: string[], origin: string): boolean {
  return origins.includes('*') || origins.includes(origin);
}

/**
 * Server keys (or a bearer token) open /v1, client keys (or a bearer token) open /client/v1.
 * The OAuth endpoints themselves take server keys only. Everything else (/health, unknown
 * paths) is public, so an unknown path is a plain 404.
 */
export function authMiddleware(deps: Deps) {
  return async function authenticate(ctx: AppContext, next: Next): Promise<void> {
    const path = ctx.path;
    const server = isServerPath(path);
    const client = isClientPath(path);
    if (!server && !client) return next();

    const appId = ctx.get('X-App-Id');
    const clientId = ctx.get('X-Client-Application-Id');
    const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
    const requestId = ctx.state.requestId;

    if (server && appId) {
      const key = await authenticateKey(deps, 'server', appId, ctx.get('X-App-Token'));
      if (!key) throw unauthorized('Invalid X-App-Id or X-App-Token');
      ctx.state.actor = { channel: 'API', api_key: { name: key.name, app_id: key.app_id }, request_id: requestId };
      return next();
    }

    if (client && clientId) {
      const key = await authenticateKey(deps, 'client', clientId, ctx.get('X-Client-Token'));
      if (!key) throw unauthorized('Invalid X-Client-Application-Id or X-Client-Token');
      const origin = ctx.get('Origin');
      if (!origin) throw forbidden('Client-side requests need an origin header');
      if (!originAllowed(key.origins, origin)) throw forbidden(`Origin ${origin} is not allowed for this client key`);
      ctx.state.actor = { channel: 'CLIENT_API', api_key: { name: key.name, app_id: key.app_id }, request_id: requestId };
      return next();
    }

    if (bearer && !isOAuthPath(path)) {
      const holder = await authenticateBearer(deps, bearer);
      if (!holder) throw unauthorized('Invalid or expired access token');
      if (!scopesAllowPath(holder.scopes, path)) {
        throw missingPermission(`The token's scope (${holder.scopes.join(' ')}) does not open ${path}`);
      }
      ctx.state.actor = {
        channel: client ? 'CLIENT_API' : 'API',
        api_key: { name: holder.name, app_id: holder.app_id },
        request_id: requestId,
      };
      return next();
    }

    if (server && clientId) throw unauthorized('Client-side keys open only /client/v1 paths');
    if (client && appId) throw unauthorized('Server-side keys open only /v1 paths');
    throw unauthorized(
      client
        ? 'Send X-Client-Application-Id and X-Client-Token, or an OAuth bearer token'
        : isOAuthPath(path)
          ? 'Send X-App-Id and X-App-Token'
          : 'Send X-App-Id and X-App-Token, or an OAuth bearer token',
    );
  };
}
