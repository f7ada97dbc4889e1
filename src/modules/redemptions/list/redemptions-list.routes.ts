import type { RouteModule } from '../../../http/context.js';
import { setFilterWindowHeader } from '../../../http/filter-window-header.js';
import { getRedemption, listRedemptions } from './redemptions-list.service.js';
import { parseRedemptionsListQuery } from './redemptions-list.schemas.js';

/** The redemption list's read side (the reference's "List Redemptions"): the list and one record by id. */
export const redemptionsListRoutes: RouteModule = (router, deps) => {
  router.get('/v1/redemptions', async (ctx) => {
    const { list, window } = await listRedemptions(deps, parseRedemptionsListQuery(ctx.query));
    setFilterWindowHeader(ctx, window);
    ctx.body = list;
  });

  router.get('/v1/redemptions/:redemptionId', async (ctx) => {
    ctx.body = await getRedemption(deps, ctx.params.redemptionId as string);
  });
};
