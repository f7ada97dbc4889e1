import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { createCampaign, deleteCampaign, updateCampaign } from '../vouchers/index.js';
import { campaignsListQuerySchema, createCampaignSchema, updateCampaignSchema } from './campaigns.schemas.js';
import { withCampaignType } from './campaign-template.rules.js';
import { getCampaign, listCampaigns, setCampaignActive } from './campaigns.service.js';

/** Campaigns. Writes reach the campaign's vouchers, so they are the vouchers module's use cases. */
export const campaignsRoutes: RouteModule = (router, deps) => {
  router.post('/v1/campaigns', async (ctx) => {
    ctx.body = await createCampaign(
      deps,
      withCampaignType(parse(createCampaignSchema, ctx.request.body, 'body')),
      ctx.state.actor,
    );
  });

  router.get('/v1/campaigns', async (ctx) => {
    ctx.body = await listCampaigns(deps, parse(campaignsListQuerySchema, ctx.query, 'query'));
  });

  router.get('/v1/campaigns/:campaignId', async (ctx) => {
    ctx.body = await getCampaign(deps, ctx.params.campaignId as string);
  });

  router.put('/v1/campaigns/:campaignId', async (ctx) => {
    ctx.body = await updateCampaign(
      deps,
      ctx.params.campaignId as string,
      parse(updateCampaignSchema, ctx.request.body, 'body'),
      ctx.state.actor,
    );
  });

  for (const [action, active] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    router.post(`/v1/campaigns/:campaignId/${action}`, async (ctx) => {
      ctx.body = await setCampaignActive(deps, ctx.params.campaignId as string, active);
    });
  }

  router.delete('/v1/campaigns/:campaignId', async (ctx) => {
    ctx.status = 202;
    ctx.body = await deleteCampaign(deps, ctx.params.campaignId as string, ctx.state.actor);
  });
};
