import type { RouteModule } from '../../http/context.js';
import { invalidQueryParams } from '../../lib/errors.js';
import { parseLimit, parseOrder, parsePage, parseString, type Query } from '../../lib/pagination.js';
import { validateBody } from '../../lib/validate.js';
import { deleteCampaign, updateCampaign } from './campaign-changes.service.js';
import { createCampaign, getCampaign, listCampaigns } from './campaigns.service.js';
import { CAMPAIGN_ORDER_FIELDS, CAMPAIGN_TYPES, createCampaignSchema, updateCampaignSchema, type CreateCampaignBody, type UpdateCampaignBody } from './campaigns.schemas.js';
import type { CampaignType } from './campaigns.table.js';

function campaignTypeOf(query: Query): CampaignType | undefined {
  const value = parseString(query, 'campaign_type');
  if (value === undefined) return undefined;
  if (!CAMPAIGN_TYPES.includes(value as CampaignType)) {
    throw invalidQueryParams(`Query parameter campaign_type must be one of: ${CAMPAIGN_TYPES.join(', ')}`);
  }
  return value as CampaignType;
}

export const campaignsRoutes: RouteModule = (router, deps) => {
  router.post('/v1/campaigns', async (ctx) => {
    const body = validateBody(createCampaignSchema, ctx.request.body) as CreateCampaignBody;
    ctx.body = await createCampaign(deps, body, ctx.state.actor);
  });

  router.get('/v1/campaigns', async (ctx) => {
    const query = ctx.query as Query;
    ctx.body = await listCampaigns(deps, {
      limit: parseLimit(query),
      page: parsePage(query, 100),
      order: parseOrder(query, CAMPAIGN_ORDER_FIELDS) ?? { field: 'created_at', direction: 'desc' },
      campaignType: campaignTypeOf(query),
    });
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
