import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import {
  createPromotionTier,
  deletePromotionTier,
  setPromotionTierActive,
  updatePromotionTier,
} from './promotion-tier-changes.service.js';
import {
  createTierSchema,
  promotionTiersListQuerySchema,
  updatePromotionTierSchema,
} from './promotion-tiers.schemas.js';
import { getPromotionTier, listCampaignTiers, listPromotionTiers } from './promotion-tiers.service.js';

/** Promotion tiers of PROMOTION campaigns (`:campaignId` is a campaign's id or name). */
export const promotionTiersRoutes: RouteModule = (router, deps) => {
  router.get('/v1/promotions/tiers', async (ctx) => {
    ctx.body = await listPromotionTiers(deps, parse(promotionTiersListQuerySchema, ctx.query, 'query'));
  });
  // What a storefront may show: the same list, with client keys.
  router.get('/client/v1/promotions/tiers', async (ctx) => {
    ctx.body = await listPromotionTiers(deps, parse(promotionTiersListQuerySchema, ctx.query, 'query'));
  });
  router.get('/v1/promotions/tiers/:promotionTierId', async (ctx) => {
    ctx.body = await getPromotionTier(deps, ctx.params.promotionTierId as string);
  });
  router.put('/v1/promotions/tiers/:promotionTierId', async (ctx) => {
    ctx.body = await updatePromotionTier(
      deps,
      ctx.params.promotionTierId as string,
      parse(updatePromotionTierSchema, ctx.request.body, 'body'),
    );
  });
  router.delete('/v1/promotions/tiers/:promotionTierId', async (ctx) => {
    await deletePromotionTier(deps, ctx.params.promotionTierId as string);
    ctx.status = 204;
  });
  for (const [action, active] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    router.post(`/v1/promotions/tiers/:promotionTierId/${action}`, async (ctx) => {
      ctx.body = await setPromotionTierActive(deps, ctx.params.promotionTierId as string, active);
    });
  }
  router.get('/v1/promotions/:campaignId/tiers', async (ctx) => {
    ctx.body = await listCampaignTiers(deps, ctx.params.campaignId as string);
  });
  router.post('/v1/promotions/:campaignId/tiers', async (ctx) => {
    ctx.body = await createPromotionTier(
      deps,
      ctx.params.campaignId as string,
      parse(createTierSchema, ctx.request.body, 'body'),
    );
  });
};
