import type { RouteModule } from '../../http/context.js';
import { getRedemption, listRedemptions } from './redemptions-list.service.js';
import { parseRedemptionsListQuery } from './redemptions-list.schemas.js';

/** The redemption list's read side (the reference's "List Redemptions"): the list and one record by id. */
export const redemptionsListRoutes: RouteModule = (router, deps) => {
  router.get('/v1/redemptions', async (ctx) => {
    ctx.body = await listRedemptions(deps, parseRedemptionsListQuery(ctx.query));
  });

  router.get('/v1/redemptions/:redemptionId', async (ctx) => {
    ctx.body = await getRedemption(deps, ctx.params.redemptionId as string);
  });
};
