import type { RouteModule } from '../../../http/context.js';
import { invalidQueryParams } from '../../../lib/errors.js';
import { nestedQuery } from '../../../lib/nested-query.js';
import { parse } from '../../../lib/validate.js';
import { legacyBodyOfQuery, legacyBodySchema, promotionsValidationSchema } from './legacy.schemas.js';
import { redeemLegacy, validateVoucherLegacy } from './legacy.service.js';
import { validatePromotions } from './promotions-validation.service.js';

/**
 * The single-redeemable validate and redeem calls of older integrations (legacy.service.ts)
 * and the promotions validation (promotions-validation.service.ts), server side and client
 * side. Registered by redemptionsRoutes.
 */
function codeOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw invalidQueryParams('Query parameter code is required (a voucher code)');
  return value;
}

export const legacyRoutes: RouteModule = (router, deps) => {
  router.post('/v1/vouchers/:code/validate', async (ctx) => {
    ctx.body = await validateVoucherLegacy(
      deps,
      ctx.state.actor,
      ctx.params.code as string,
      parse(legacyBodySchema, ctx.request.body, 'hot body'),
    );
  });
  router.get('/client/v1/validate', async (ctx) => {
    const { code, body } = legacyBodyOfQuery(nestedQuery(ctx.query));
    ctx.body = await validateVoucherLegacy(
      deps,
      ctx.state.actor,
      codeOf(code),
      parse(legacyBodySchema, body, 'nested query'),
    );
  });
  router.post('/v1/promotions/validation', async (ctx) => {
    ctx.body = await validatePromotions(
      deps,
      ctx.state.actor,
      parse(promotionsValidationSchema, ctx.request.body, 'hot body'),
    );
  });
  router.get('/client/v1/promotions/validation', async (ctx) => {
    const {
      body: { session: _session, ...body },
    } = legacyBodyOfQuery(nestedQuery(ctx.query));
    ctx.body = await validatePromotions(deps, ctx.state.actor, parse(promotionsValidationSchema, body, 'nested query'));
  });
  router.post('/v1/vouchers/:code/redemption', async (ctx) => {
    const target = { object: 'voucher', id: ctx.params.code as string } as const;
    ctx.body = await redeemLegacy(deps, ctx.state.actor, target, parse(legacyBodySchema, ctx.request.body, 'hot body'));
  });
  router.post('/client/v1/redeem', async (ctx) => {
    const target = { object: 'voucher', id: codeOf(ctx.query.code) } as const;
    ctx.body = await redeemLegacy(deps, ctx.state.actor, target, parse(legacyBodySchema, ctx.request.body, 'hot body'));
  });
  router.post('/v1/promotions/tiers/:tierId/redemption', async (ctx) => {
    const target = { object: 'promotion_tier', id: ctx.params.tierId as string } as const;
    ctx.body = await redeemLegacy(deps, ctx.state.actor, target, parse(legacyBodySchema, ctx.request.body, 'hot body'));
  });
};
