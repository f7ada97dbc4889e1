import type { Deps } from '../../../app/deps.js';
import type { Actor } from '../../../lib/actor.js';
import { listAvailableTierIds } from '../../campaigns/index.js';
import type { LegacyBody } from './legacy.schemas.js';
import type { AppliedRedeemable, Plan } from '../pipeline/redemption-plan.service.js';
import { orderOfValidation, validateEach } from '../pipeline/validate.service.js';

/**
 * The legacy promotions validation (POST /v1/promotions/validation, GET
 * /client/v1/promotions/validation; the SDK's `promotions.validate`, `validations.validate(
 * {...})` and client-side `validate` without a code): every promotion tier available now (at
 * most MAX_TIERS, oldest first), each validated alone against the request's customer and order
 * through the stackable pipeline (`validateEach`), and those that apply answered by hierarchy
 * with the order after each: `{valid, promotions: [...], tracking_id}`.
 */
export const MAX_TIERS = 100;

type ValidationDeps = Parameters<typeof validateEach>[0] & Pick<Deps, 'clock'>;

function promotionOf(plan: Plan, applied: AppliedRedeemable) {
  const { tier } = applied.loaded.tier!;
  const order = orderOfValidation(plan, applied.order);
  const action = JSON.parse(tier.action) as { discount?: unknown };
  return {
    id: tier.id,
    object: 'promotion_tier' as const,
    ...(tier.banner === null ? {} : { banner: tier.banner }),
    name: tier.name,
    ...(tier.start_date === null ? {} : { start_date: tier.start_date }),
    ...(tier.expiration_date === null ? {} : { expiration_date: tier.expiration_date }),
    ...(action.discount === undefined ? {} : { discount: action.discount }),
    discount_amount: order?.total_discount_amount ?? 0,
    applied_discount_amount: order?.total_applied_discount_amount ?? 0,
    metadata: JSON.parse(tier.metadata) as Record<string, unknown>,
    ...(order ? { order } : {}),
    hierarchy: tier.hierarchy,
  };
}

export async function validatePromotions(
  deps: ValidationDeps,
  actor: Actor,
  body: Omit<LegacyBody, 'gift' | 'reward' | 'session'>,
) {
  const ids = await listAvailableTierIds(deps, MAX_TIERS);
  const redeemables = ids.map((id) => ({ object: 'promotion_tier' as const, id }));
  const { plans, trackingId } = await validateEach(deps, actor, { ...body, redeemables, options: undefined });
  const promotions = plans.flatMap((plan) => plan.applied.map((applied) => promotionOf(plan, applied)));
  promotions.sort((a, b) => a.hierarchy - b.hierarchy);
  return { valid: promotions.length > 0, promotions, tracking_id: trackingId };
}
