import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { createRewardSchema, rewardsListQuerySchema, updateRewardSchema } from './rewards.schemas.js';
import { createReward, deleteReward, getReward, listRewards, updateReward } from './rewards.service.js';

/** Rewards (the reference's Reward object); their assignments to loyalty programs are in reward-assignments.routes.ts. */
export const rewardsRoutes: RouteModule = (router, deps) => {
  router.post('/v1/rewards', async (ctx) => {
    ctx.body = await createReward(deps, parse(createRewardSchema, ctx.request.body, 'body'));
  });
  router.get('/v1/rewards', async (ctx) => {
    ctx.body = await listRewards(deps, parse(rewardsListQuerySchema, ctx.query, 'query'));
  });
  router.get('/v1/rewards/:rewardId', async (ctx) => {
    ctx.body = await getReward(deps, ctx.params.rewardId as string);
  });
  router.put('/v1/rewards/:rewardId', async (ctx) => {
    ctx.body = await updateReward(
      deps,
      ctx.params.rewardId as string,
      parse(updateRewardSchema, ctx.request.body, 'body'),
    );
  });
  router.delete('/v1/rewards/:rewardId', async (ctx) => {
    await deleteReward(deps, ctx.params.rewardId as string);
    ctx.status = 204;
  });
};
