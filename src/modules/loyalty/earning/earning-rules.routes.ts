import type { RouteModule } from '../../../http/context.js';
import { parse } from '../../../lib/validate.js';
import {
  createEarningRulesSchema,
  earningRulesListQuerySchema,
  updateEarningRuleSchema,
} from './earning-rules.schemas.js';
import {
  createEarningRules,
  deleteEarningRule,
  getEarningRule,
  listEarningRules,
  setEarningRuleActive,
  updateEarningRule,
} from './earning-rules.service.js';

/** Earning rules of a loyalty program (id or name in the path). */
export const earningRulesRoutes: RouteModule = (router, deps) => {
  const base = '/v1/loyalties/:campaignId/earning-rules';
  const campaign = (params: Record<string, string | undefined>) => params.campaignId as string;
  const rule = (params: Record<string, string | undefined>) => params.ruleId as string;

  router.post(base, async (ctx) => {
    ctx.body = await createEarningRules(
      deps,
      campaign(ctx.params),
      parse(createEarningRulesSchema, ctx.request.body, 'body'),
    );
  });
  router.get(base, async (ctx) => {
    ctx.body = await listEarningRules(
      deps,
      campaign(ctx.params),
      parse(earningRulesListQuerySchema, ctx.query, 'query'),
    );
  });
  router.get(`${base}/:ruleId`, async (ctx) => {
    ctx.body = await getEarningRule(deps, campaign(ctx.params), rule(ctx.params));
  });
  router.put(`${base}/:ruleId`, async (ctx) => {
    ctx.body = await updateEarningRule(
      deps,
      campaign(ctx.params),
      rule(ctx.params),
      parse(updateEarningRuleSchema, ctx.request.body, 'body'),
    );
  });
  router.delete(`${base}/:ruleId`, async (ctx) => {
    await deleteEarningRule(deps, campaign(ctx.params), rule(ctx.params));
    ctx.status = 204;
  });
  router.post(`${base}/:ruleId/enable`, async (ctx) => {
    ctx.body = await setEarningRuleActive(deps, campaign(ctx.params), rule(ctx.params), true);
  });
  router.post(`${base}/:ruleId/disable`, async (ctx) => {
    ctx.body = await setEarningRuleActive(deps, campaign(ctx.params), rule(ctx.params), false);
  });
};
