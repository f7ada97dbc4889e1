import type { AppContext, RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { tokenBodySchema, tokenRequestSchema } from './oauth.schemas.js';
import { introspectToken, issueToken, revokeToken } from './oauth.service.js';

const appIdOf = (ctx: AppContext): string => ctx.state.actor.api_key?.app_id ?? '';

export const oauthRoutes: RouteModule = (router, deps) => {
  router.post('/v1/oauth/token', async (ctx) => {
    ctx.body = await issueToken(deps, appIdOf(ctx), parse(tokenRequestSchema, ctx.request.body, 'form'));
  });

  router.post('/v1/oauth/introspect', async (ctx) => {
    ctx.body = await introspectToken(deps, parse(tokenBodySchema, ctx.request.body, 'form'));
  });

  router.post('/v1/oauth/token/revoke', async (ctx) => {
    await revokeToken(deps, parse(tokenBodySchema, ctx.request.body, 'form'));
    // RFC 7009 section 2.2 answers a revocation 200 (the reference writes 204): the status
    // says it all and the client ignores the body, so it stays empty, with no type to parse.
    ctx.status = 200;
    ctx.body = '';
    ctx.remove('Content-Type');
  });
};
