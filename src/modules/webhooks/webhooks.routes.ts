import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { createWebhookSchema, updateWebhookSchema } from './webhooks.schemas.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  requireProject,
  updateWebhook,
} from './webhooks.service.js';

/**
 * The reference's webhooks management API, with the server key (or an `api` token). Promo is
 * one project: `proj_promo` is its id; any other answers 404 (docs/webhooks.md).
 */
export const webhooksRoutes: RouteModule = (router, deps) => {
  const base = '/management/v1/projects/:projectId/webhooks';
  router.post(base, async (ctx) => {
    requireProject(ctx.params.projectId as string);
    ctx.body = await createWebhook(deps, parse(createWebhookSchema, ctx.request.body, 'body'));
  });
  router.get(base, async (ctx) => {
    requireProject(ctx.params.projectId as string);
    ctx.body = await listWebhooks(deps);
  });
  router.get(`${base}/:webhookId`, async (ctx) => {
    requireProject(ctx.params.projectId as string);
    ctx.body = await getWebhook(deps, ctx.params.webhookId as string);
  });
  router.put(`${base}/:webhookId`, async (ctx) => {
    requireProject(ctx.params.projectId as string);
    ctx.body = await updateWebhook(
      deps,
      ctx.params.webhookId as string,
      parse(updateWebhookSchema, ctx.request.body, 'body'),
    );
  });
  router.delete(`${base}/:webhookId`, async (ctx) => {
    requireProject(ctx.params.projectId as string);
    await deleteWebhook(deps, ctx.params.webhookId as string);
    ctx.status = 204;
  });
};
