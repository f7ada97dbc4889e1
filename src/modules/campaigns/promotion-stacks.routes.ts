import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { createStackSchema, promotionStacksListQuerySchema, updateStackSchema } from './promotion-stacks.schemas.js';
import {
  createPromotionStack,
  deletePromotionStack,
  getPromotionStack,
  listCampaignStacks,
  listPromotionStacks,
  updatePromotionStack,
} from './promotion-stacks.service.js';

/** Promotion stacks of PROMOTION campaigns (`:campaignId` is a campaign's id or name). */
export const promotionStacksRoutes: RouteModule = (router, deps) => {
  router.get('/v1/promotions/stacks', async (ctx) => {
    ctx.body = await listPromotionStacks(deps, parse(promotionStacksListQuerySchema, ctx.query, 'query'));
  });
  router.get('/v1/promotions/:campaignId/stacks', async (ctx) => {
    ctx.body = await listCampaignStacks(deps, ctx.params.campaignId as string);
  });
  router.post('/v1/promotions/:campaignId/stacks', async (ctx) => {
    ctx.body = await createPromotionStack(
      deps,
      ctx.params.campaignId as string,
      parse(createStackSchema, ctx.request.body, 'body'),
    );
  });
  router.get('/v1/promotions/:campaignId/stacks/:stackId', async (ctx) => {
    ctx.body = await getPromotionStack(deps, ctx.params.campaignId as string, ctx.params.stackId as string);
  });
  router.put('/v1/promotions/:campaignId/stacks/:stackId', async (ctx) => {
    ctx.body = await updatePromotionStack(
      deps,
      ctx.params.campaignId as string,
      ctx.params.stackId as string,
      parse(updateStackSchema, ctx.request.body, 'body'),
    );
  });
  router.delete('/v1/promotions/:campaignId/stacks/:stackId', async (ctx) => {
    await deletePromotionStack(deps, ctx.params.campaignId as string, ctx.params.stackId as string);
    ctx.status = 204;
  });
};
