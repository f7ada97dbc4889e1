import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import {
  bulkAssignmentsSchema,
  createRewardAssignmentSchema,
  programAssignmentsQuerySchema,
  rewardAssignmentsQuerySchema,
  updateAssignmentSchema,
} from './assignments.schemas.js';
import {
  assignReward,
  assignRewards,
  deleteRewardAssignmentRow,
  getAssignedReward,
  getAssignment,
  listProgramAssignments,
  listRewardAssignments,
  updateAssignment,
  type AssignmentScope,
} from './assignments.service.js';

/** Rewards' assignments to loyalty programs (RewardAssignment, "Update Campaign Reward Assignment"), under both of the reference's paths. */
export const rewardAssignmentsRoutes: RouteModule = (router, deps) => {
  router.post('/v1/rewards/:rewardId/assignments', async (ctx) => {
    ctx.body = await assignReward(
      deps,
      ctx.params.rewardId as string,
      parse(createRewardAssignmentSchema, ctx.request.body, 'body'),
    );
  });
  router.get('/v1/rewards/:rewardId/assignments', async (ctx) => {
    ctx.body = await listRewardAssignments(
      deps,
      ctx.params.rewardId as string,
      parse(rewardAssignmentsQuerySchema, ctx.query, 'query'),
    );
  });
  // The bulk form answers the array of assignments it made (the official client expects an array).
  router.post('/v1/loyalties/:campaignId/rewards', async (ctx) => {
    ctx.body = await assignRewards(
      deps,
      ctx.params.campaignId as string,
      parse(bulkAssignmentsSchema, ctx.request.body, 'body'),
    );
  });
  router.get('/v1/loyalties/:campaignId/rewards', async (ctx) => {
    ctx.body = await listProgramAssignments(
      deps,
      ctx.params.campaignId as string,
      parse(programAssignmentsQuerySchema, ctx.query, 'query'),
    );
  });

  router.get('/v1/loyalties/:campaignId/reward-assignments/:assignmentId/reward', async (ctx) => {
    ctx.body = await getAssignedReward(deps, ctx.params.campaignId as string, ctx.params.assignmentId as string);
  });

  const scopes: Array<[string, (params: Record<string, string | undefined>) => AssignmentScope]> = [
    ['/v1/rewards/:rewardId/assignments/:assignmentId', (p) => ({ reward: p.rewardId as string })],
    ['/v1/loyalties/:campaignId/rewards/:assignmentId', (p) => ({ program: p.campaignId as string })],
  ];
  for (const [path, scopeOf] of scopes) {
    router.get(path, async (ctx) => {
      ctx.body = await getAssignment(deps, scopeOf(ctx.params), ctx.params.assignmentId as string);
    });
    router.put(path, async (ctx) => {
      ctx.body = await updateAssignment(
        deps,
        scopeOf(ctx.params),
        ctx.params.assignmentId as string,
        parse(updateAssignmentSchema, ctx.request.body, 'body'),
      );
    });
    router.delete(path, async (ctx) => {
      await deleteRewardAssignmentRow(deps, scopeOf(ctx.params), ctx.params.assignmentId as string);
      ctx.status = 204;
    });
  }
};
