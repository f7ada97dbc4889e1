import type { RouteModule } from '../../http/context.js';
import { validateBody, validateQuery } from '../../lib/validate.js';
import { deleteCampaign, updateCampaign } from './campaign-changes.service.js';
import { createCampaign, getCampaign, listCampaigns } from './campaigns.service.js';
import { campaignsListQuerySchema, createCampaignSchema, updateCampaignSchema, type CreateCampaignBody, type UpdateCampaignBody } from './campaigns.schemas.js';

export const campaignsRoutes: RouteModule = (router, deps) => {
  router.post('/v1/campaigns', async (ctx) => {
    const body = validateBody(createCampaignSchema, ctx.request.body) as CreateCampaignBody;
    ctx.body = await createCampaign(deps, body, ctx.state.actor);
  });

  router.get('/v1/campaigns', async (ctx) => {
    ctx.body = await listCampaigns(deps, validateQuery(campaignsListQuerySchema, ctx.query));
  });

  router.get('/v1/campaigns/:campaignId', async (ctx) => {
    ctx.body = await getCampaign(deps, ctx.params.campaignId as string);
  });

  router.put('/v1/campaigns/:campaignId', async (ctx) => {
    const body = validateBody(updateCampaignSchema, ctx.request.body) as UpdateCampaignBody;
    ctx.body = await updateCampaign(deps, ctx.params.campaignId as string, body, ctx.state.actor);
  });

  router.delete('/v1/campaigns/:campaignId', async (ctx) => {
    ctx.status = 202;
    ctx.body = await deleteCampaign(deps, ctx.params.campaignId as string, ctx.state.actor);
  });
};
