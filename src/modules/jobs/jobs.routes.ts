import type { RouteModule } from '../../http/context.js';
import { date, limit, querySchema } from '../../lib/query-params.js';
import { validateQuery } from '../../lib/validate.js';
import { getAsyncAction, listAsyncActions } from './jobs.service.js';

/** GET /v1/async-actions (voucherify-facts 2.2): `end_date` keeps actions scheduled before it. */
const asyncActionsQuerySchema = querySchema({ limit: limit(), end_date: date() });

export const jobsRoutes: RouteModule = (router, deps) => {
  router.get('/v1/async-actions', async (ctx) => {
    const query = validateQuery(asyncActionsQuerySchema, ctx.query);
    ctx.body = await listAsyncActions(deps, { limit: query.limit, endDate: query.end_date });
  });

  router.get('/v1/async-actions/:id', async (ctx) => {
    ctx.body = await getAsyncAction(deps, ctx.params.id as string);
  });
};
