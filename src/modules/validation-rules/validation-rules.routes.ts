import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { findCampaignOrNone, findPromotionTier } from '../campaigns/index.js';
import { earningRuleExists } from '../loyalty/index.js';
import { rewardAssignmentExists } from '../rewards/index.js';
import { findVoucherId } from '../vouchers/index.js';
import {
  assignRule,
  deleteRuleAssignmentRow,
  listAllAssignments,
  listRuleAssignments,
  type RelatedObjectLookup,
} from './assignments.service.js';
import {
  assignmentsListQuerySchema,
  createAssignmentQuerySchema,
  createRuleAssignmentSchema,
  createRuleSchema,
  ruleAssignmentsQuerySchema,
  rulesListQuerySchema,
  updateRuleSchema,
} from './validation-rules.schemas.js';
import { createRule, deleteRule, getRule, listRules, updateRule } from './validation-rules.service.js';

const idIf = (id: string) => (exists: boolean) => (exists ? id : undefined);

/**
 * The objects a rule may be assigned to live in modules above validation rules (which they
 * import to answer and create assignments), so their lookups are joined here, at the edge.
 */
const lookupRelated: RelatedObjectLookup = async (db, type, key) => {
  switch (type) {
    case 'voucher':
      return findVoucherId(db, key);
    case 'campaign':
      return (await findCampaignOrNone(db, key))?.id;
    case 'promotion_tier':
      return (await findPromotionTier(db, key))?.tier.id;
    case 'earning_rule':
      return earningRuleExists(db, key).then(idIf(key));
    case 'reward_assignment':
      return rewardAssignmentExists(db, key).then(idIf(key));
  }
};

/** Validation rules and their assignments (issue 12; the reference's /v1/validation-rules*). */
export const validationRulesRoutes: RouteModule = (router, deps) => {
  router.post('/v1/validation-rules', async (ctx) => {
    ctx.body = await createRule(deps, parse(createRuleSchema, ctx.request.body, 'body'));
  });
  router.get('/v1/validation-rules', async (ctx) => {
    ctx.body = await listRules(deps, parse(rulesListQuerySchema, ctx.query, 'query'));
  });
  router.get('/v1/validation-rules/:ruleId', async (ctx) => {
    ctx.body = await getRule(deps, ctx.params.ruleId as string);
  });
  router.put('/v1/validation-rules/:ruleId', async (ctx) => {
    ctx.body = await updateRule(deps, ctx.params.ruleId as string, parse(updateRuleSchema, ctx.request.body, 'body'));
  });
  router.delete('/v1/validation-rules/:ruleId', async (ctx) => {
    await deleteRule(deps, ctx.params.ruleId as string);
    ctx.status = 204;
  });
  router.post('/v1/validation-rules/:ruleId/assignments', async (ctx) => {
    const query = parse(createAssignmentQuerySchema, ctx.query, 'query');
    ctx.body = await assignRule(
      deps,
      ctx.params.ruleId as string,
      parse(createRuleAssignmentSchema, ctx.request.body, 'body'),
      query,
      lookupRelated,
    );
  });
  router.get('/v1/validation-rules/:ruleId/assignments', async (ctx) => {
    ctx.body = await listRuleAssignments(
      deps,
      ctx.params.ruleId as string,
      parse(ruleAssignmentsQuerySchema, ctx.query, 'query'),
    );
  });
  router.delete('/v1/validation-rules/:ruleId/assignments/:assignmentId', async (ctx) => {
    await deleteRuleAssignmentRow(deps, ctx.params.ruleId as string, ctx.params.assignmentId as string);
    ctx.status = 204;
  });
  router.get('/v1/validation-rules-assignments', async (ctx) => {
    ctx.body = await listAllAssignments(deps, parse(assignmentsListQuerySchema, ctx.query, 'query'));
  });
};
