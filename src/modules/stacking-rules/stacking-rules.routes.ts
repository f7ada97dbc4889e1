import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { stackingRulesChangeSchema } from './stacking-rules.schemas.js';
import {
  changeStackingRules,
  createStackingRulesRecord,
  deleteStackingRulesRecord,
  getStackingRulesRecord,
  listStackingRulesRecords,
  showStackingRules,
  updateStackingRulesRecord,
} from './stacking-rules.service.js';

/**
 * The project's stacking rules. GET/PUT /v1/stacking-rules is promo's own path (the rules
 * object itself); the reference's management API is served beside it, with any `projectId`
 * (promo is one project).
 */
export const stackingRulesRoutes: RouteModule = (router, deps) => {
  router.get('/v1/stacking-rules', async (ctx) => {
    ctx.body = await showStackingRules(deps);
  });
  router.put('/v1/stacking-rules', async (ctx) => {
    ctx.body = await changeStackingRules(deps, parse(stackingRulesChangeSchema, ctx.request.body, 'body'));
  });

  const base = '/management/v1/projects/:projectId/stacking-rules';
  router.get(base, async (ctx) => {
    ctx.body = await listStackingRulesRecords(deps);
  });
  router.post(base, async (ctx) => {
    ctx.body = await createStackingRulesRecord(deps, parse(stackingRulesChangeSchema, ctx.request.body, 'body'));
  });
  router.get(`${base}/:stackingRulesId`, async (ctx) => {
    ctx.body = await getStackingRulesRecord(deps, ctx.params.stackingRulesId as string);
  });
  router.put(`${base}/:stackingRulesId`, async (ctx) => {
    ctx.body = await updateStackingRulesRecord(
      deps,
      ctx.params.stackingRulesId as string,
      parse(stackingRulesChangeSchema, ctx.request.body, 'body'),
    );
  });
  router.delete(`${base}/:stackingRulesId`, async (ctx) => {
    await deleteStackingRulesRecord(deps, ctx.params.stackingRulesId as string);
    ctx.status = 204;
  });
};
