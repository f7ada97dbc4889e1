import type { RouteModule } from '../../http/context.js';
import { parseDateQuery } from '../../lib/dates.js';
import { parseLimit, type Query } from '../../lib/pagination.js';
import { getAsyncAction, listAsyncActions } from '../../jobs/jobs.service.js';

export const asyncActionsRoutes: RouteModule = (router, deps) => {
  router.get('/v1/async-actions', async (ctx) => {
    const query = ctx.query as Query;
    ctx.body = await listAsyncActions(deps, { limit: parseLimit(query), endDate: parseDateQuery(query, 'end_date') });
  });

  router.get('/v1/async-actions/:id', async (ctx) => {
    ctx.body = await getAsyncAction(deps, ctx.params.id as string);
  });
};
