import type { RouteModule } from '../../../http/context.js';
import { parse } from '../../../lib/validate.js';
import { listMemberPendingPoints, listProgramPendingPoints } from './pending-points-list.service.js';
import { pendingPointsListQuerySchema } from './pending-points.schemas.js';
import { activatePendingPoints, cancelPendingPoints } from './pending-points.service.js';

/** Pending points: the lists, the reference's "Activate Member Pending Points", and the reference's cancel. */
export const pendingPointsRoutes: RouteModule = (router, deps) => {
  const param = (params: Record<string, string | undefined>, name: string) => params[name] as string;

  router.get('/v1/loyalties/members/:memberId/pending-points', async (ctx) => {
    ctx.body = await listMemberPendingPoints(
      deps,
      param(ctx.params, 'memberId'),
      parse(pendingPointsListQuerySchema, ctx.query, 'query'),
    );
  });
  router.get('/v1/loyalties/:campaignId/members/:memberId/pending-points', async (ctx) => {
    const query = parse(pendingPointsListQuerySchema, ctx.query, 'query');
    ctx.body = await listMemberPendingPoints(
      deps,
      param(ctx.params, 'memberId'),
      query,
      param(ctx.params, 'campaignId'),
    );
  });
  router.get('/v1/loyalties/:campaignId/pending-points', async (ctx) => {
    ctx.body = await listProgramPendingPoints(
      deps,
      param(ctx.params, 'campaignId'),
      parse(pendingPointsListQuerySchema, ctx.query, 'query'),
    );
  });
  router.post('/v1/loyalties/members/:memberId/pending-points/:pendingPointsId/activate', async (ctx) => {
    ctx.body = await activatePendingPoints(
      deps,
      param(ctx.params, 'memberId'),
      param(ctx.params, 'pendingPointsId'),
      ctx.state.actor,
    );
  });
  router.post('/v1/loyalties/members/:memberId/pending-points/:pendingPointsId/cancel', async (ctx) => {
    await cancelPendingPoints(
      deps,
      param(ctx.params, 'memberId'),
      param(ctx.params, 'pendingPointsId'),
      ctx.state.actor,
    );
    ctx.status = 204;
  });
};
