import type { RouteModule } from '../../../http/context.js';
import { parse } from '../../../lib/validate.js';
import { rollbackRedemption, rollbackStackedRedemption } from './rollback.service.js';
import { rollbackBodySchema, rollbackInput, rollbackQuerySchema } from './rollbacks.schemas.js';

/** Rollbacks (voucherify-facts 2.6): one redemption, or a stacked redemption by its parent. */
export const rollbacksRoutes: RouteModule = (router, deps) => {
  const inputOf = (query: unknown, body: unknown) =>
    rollbackInput(
      parse(rollbackQuerySchema, query as Record<string, unknown>, 'query'),
      parse(rollbackBodySchema, body ?? {}, 'body'),
    );
  router.post('/v1/redemptions/:id/rollback', async (ctx) => {
    ctx.body = await rollbackRedemption(
      deps,
      ctx.state.actor,
      ctx.params.id as string,
      inputOf(ctx.query, ctx.request.body),
    );
  });
  router.post('/v1/redemptions/:id/rollbacks', async (ctx) => {
    ctx.body = await rollbackStackedRedemption(
      deps,
      ctx.state.actor,
      ctx.params.id as string,
      inputOf(ctx.query, ctx.request.body),
    );
  });
};
