import type { RouteModule } from '../../../http/context.js';
import { parse } from '../../../lib/validate.js';
import { getMember, listMembers } from './members-list.service.js';
import { addMemberSchema, gatherIds, membersListQuerySchema } from './members.schemas.js';
import { addMember } from './members.service.js';
import { listMemberRewards, memberRewardsQuerySchema } from './member-rewards.service.js';
import { listMemberActivities, listMemberActivity, memberActivityQuerySchema } from './member-activity.service.js';

/** Loyalty program members: the program's cards and their holders. */
export const membersRoutes: RouteModule = (router, deps) => {
  router.post('/v1/loyalties/:campaignId/members', async (ctx) => {
    ctx.body = await addMember(
      deps,
      ctx.params.campaignId as string,
      parse(addMemberSchema, ctx.request.body, 'body'),
      ctx.state.actor,
    );
  });

  router.get('/v1/loyalties/:campaignId/members', async (ctx) => {
    ctx.body = await listMembers(
      deps,
      ctx.params.campaignId as string,
      parse(membersListQuerySchema, gatherIds(ctx.query), 'query'),
    );
  });

  router.get('/v1/loyalties/members/:memberId', async (ctx) => {
    ctx.body = await getMember(deps, ctx.params.memberId as string);
  });

  router.get('/v1/loyalties/members/:memberId/rewards', async (ctx) => {
    ctx.body = await listMemberRewards(
      deps,
      ctx.params.memberId as string,
      parse(memberRewardsQuerySchema, ctx.query, 'query'),
    );
  });

  router.get('/v1/loyalties/members/:memberId/activity', async (ctx) => {
    ctx.body = await listMemberActivity(
      deps,
      { code: ctx.params.memberId as string },
      parse(memberActivityQuerySchema, ctx.query, 'query'),
    );
  });
  router.get('/v1/loyalties/:campaignId/members/:memberId/activity', async (ctx) => {
    const card = { code: ctx.params.memberId as string, campaign: ctx.params.campaignId as string };
    ctx.body = await listMemberActivity(deps, card, parse(memberActivityQuerySchema, ctx.query, 'query'));
  });

  // The deprecated forms (the SDK's loyalties.getMemberActivities): the same events under `activities`, with `total`.
  router.get('/v1/loyalties/members/:memberId/activities', async (ctx) => {
    ctx.body = await listMemberActivities(
      deps,
      { code: ctx.params.memberId as string },
      parse(memberActivityQuerySchema, ctx.query, 'query'),
    );
  });
  router.get('/v1/loyalties/:campaignId/members/:memberId/activities', async (ctx) => {
    const card = { code: ctx.params.memberId as string, campaign: ctx.params.campaignId as string };
    ctx.body = await listMemberActivities(deps, card, parse(memberActivityQuerySchema, ctx.query, 'query'));
  });

  router.get('/v1/loyalties/:campaignId/members/:memberId', async (ctx) => {
    ctx.body = await getMember(deps, ctx.params.memberId as string, ctx.params.campaignId as string);
  });
};
