import type { AppContext, RouteModule } from '../../http/context.js';
import { introspectToken, issueToken, revokeToken } from './oauth.service.js';

type FormBody = Record<string, unknown>;
const formBody = (ctx: AppContext): FormBody => (ctx.request.body ?? {}) as FormBody;
const appIdOf = (ctx: AppContext): string => ctx.state.actor.api_key?.app_id ?? '';

export const oauthRoutes: RouteModule = (router, deps) => {
  router.post('/v1/oauth/token', async (ctx) => {
    ctx.body = await issueToken(deps, appIdOf(ctx), formBody(ctx));
  });

  router.post('/v1/oauth/introspect', async (ctx) => {
    ctx.body = await introspectToken(deps, formBody(ctx));
  });

  router.post('/v1/oauth/token/revoke', async (ctx) => {
    await revokeToken(deps, formBody(ctx));
    ctx.status = 204;
  });
};
