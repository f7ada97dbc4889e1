import type { RouteModule } from '../../../http/context.js';
import { parse } from '../../../lib/validate.js';
import { listMemberTiers } from './tiers-members.service.js';
import { earningRulesListQuerySchema } from '../earning/earning-rules.schemas.js';
import { listTierEarningRules, listTierRewards } from './tiers-rewards.service.js';
import { createTiersSchema, tiersListQuerySchema, updateTierSchema } from './tiers.schemas.js';
import { createTiers, deleteTier, getTier, listTiers, updateTier } from './tiers.service.js';

/** Loyalty tiers (the reference's LoyaltyTier object), a tier's rewards ("List Loyalty Tier Rewards") and a member's tiers ("List Member's Loyalty Tiers"). `:campaignId` is a program's id or name. */
export const tiersRoutes: RouteModule = (router, deps) => {
  router.post('/v1/loyalties/:campaignId/tiers', async (ctx) => {
    ctx.body = await createTiers(
      deps,
      ctx.params.campaignId as string,
      parse(createTiersSchema, ctx.request.body, 'body'),
    );
  });
  router.get('/v1/loyalties/:campaignId/tiers', async (ctx) => {
    ctx.body = await listTiers(deps, ctx.params.campaignId as string, parse(tiersListQuerySchema, ctx.query, 'query'));
  });
  router.get('/v1/loyalties/:campaignId/tiers/:tierId', async (ctx) => {
    ctx.body = await getTier(deps, ctx.params.campaignId as string, ctx.params.tierId as string);
  });
  // PUT and DELETE are promo's own: the reference has neither.
  router.put('/v1/loyalties/:campaignId/tiers/:tierId', async (ctx) => {
    ctx.body = await updateTier(
      deps,
      ctx.params.campaignId as string,
      ctx.params.tierId as string,
      parse(updateTierSchema, ctx.request.body, 'body'),
    );
  });
  router.delete('/v1/loyalties/:campaignId/tiers/:tierId', async (ctx) => {
    await deleteTier(deps, ctx.params.campaignId as string, ctx.params.tierId as string);
    ctx.status = 204;
  });
  router.get('/v1/loyalties/:campaignId/tiers/:tierId/rewards', async (ctx) => {
    ctx.body = await listTierRewards(deps, ctx.params.campaignId as string, ctx.params.tierId as string);
  });
  router.get('/v1/loyalties/:campaignId/tiers/:tierId/earning-rules', async (ctx) => {
    const query = parse(earningRulesListQuerySchema, ctx.query, 'query');
    ctx.body = await listTierEarningRules(deps, ctx.params.campaignId as string, ctx.params.tierId as string, query);
  });
  router.get('/v1/loyalties/members/:memberId/tiers', async (ctx) => {
    ctx.body = await listMemberTiers(deps, ctx.params.memberId as string);
  });
};
