import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { RawJson } from '../../lib/raw-json.js';
import { stackableBodySchema } from './pipeline/redemptions.schemas.js';
import { validateStackable } from './pipeline/validate.service.js';
import { getVoucherRedemptions } from './list/voucher-redemptions.service.js';
import { rollbacksRoutes } from './rollbacks/rollbacks.routes.js';
import { releaseValidationSession } from './pipeline/session-release.service.js';
import { redeemMemberReward } from './legacy/reward-redemption.service.js';
import { memberRewardBodySchema } from './legacy/legacy.schemas.js';
import { legacyRoutes } from './legacy/legacy.routes.js';
import { voucherRedemptionsQuerySchema } from './list/redemptions-list.schemas.js';

/**
 * Stackable redemptions and validations (the reference's "Redeem Stackable Discounts" and its client-side form; voucherify-facts 1.17), server side and
 * client side with the same body and answer, and a voucher's redemptions. The routes only
 * parse and present; the services own the pipeline.
 */
export const redemptionsRoutes: RouteModule = (router, deps) => {
  for (const path of ['/v1/redemptions', '/client/v1/redemptions']) {
    router.post(path, async (ctx) => {
      // A whole write (root/write-operations.ts): on the writer thread under `serve`, answered as its text.
      const body = parse(stackableBodySchema, ctx.request.body, 'hot body');
      ctx.body = new RawJson(await deps.writes.run('redemptions.redeem', [ctx.state.actor, body]));
    });
  }
  for (const path of ['/v1/validations', '/client/v1/validations']) {
    router.post(path, async (ctx) => {
      ctx.body = await validateStackable(
        deps,
        ctx.state.actor,
        parse(stackableBodySchema, ctx.request.body, 'hot body'),
      );
    });
  }
  router.get('/v1/vouchers/:code/redemption', async (ctx) => {
    ctx.body = await getVoucherRedemptions(deps, ctx.params.code as string);
  });
  router.get('/v1/vouchers/:code/redemptions', async (ctx) => {
    ctx.body = await getVoucherRedemptions(
      deps,
      ctx.params.code as string,
      parse(voucherRedemptionsQuerySchema, ctx.query, 'query'),
    );
  });
  router.post('/v1/loyalties/members/:memberId/redemption', async (ctx) => {
    ctx.body = await redeemMemberReward(
      deps,
      ctx.state.actor,
      { code: ctx.params.memberId as string },
      parse(memberRewardBodySchema, ctx.request.body, 'hot body'),
    );
  });
  router.post('/v1/loyalties/:campaignId/members/:memberId/redemption', async (ctx) => {
    const card = { code: ctx.params.memberId as string, campaign: ctx.params.campaignId as string };
    ctx.body = await redeemMemberReward(
      deps,
      ctx.state.actor,
      card,
      parse(memberRewardBodySchema, ctx.request.body, 'hot body'),
    );
  });
  router.delete('/v1/vouchers/:code/sessions/:sessionKey', async (ctx) => {
    await releaseValidationSession(deps, ctx.params.code as string, ctx.params.sessionKey as string);
    ctx.status = 204;
  });
  // Registered here so the module's routes stay one entry of src/http/routes.ts.
  rollbacksRoutes(router, deps);
  legacyRoutes(router, deps);
};
