import type { SkipKey } from '../../../engine/stacking/index.js';
import { AppError, notFound } from '../../../lib/errors.js';
import type { Failure } from './redeemable-check.rules.js';
import type { LoadedRedeemable } from './redeemable-load.service.js';

/**
 * The shapes of inapplicable and skipped redeemables (voucherify-facts 2.11), shared by the
 * redemption and validation answers. An unknown code's error is the 404 the reference shows
 * (`not_found`, resource_type voucher or promotion_tier); every other failure is its 400.
 */
const SKIP_MESSAGES: Record<SkipKey, string> = {
  applicable_redeemables_limit_exceeded: 'Applicable redeemables limit exceeded',
  applicable_redeemables_per_category_limit_exceeded: 'Applicable redeemables limit per category exceeded',
  applicable_exclusive_redeemables_limit_exceeded: 'Applicable exclusive redeemables limit exceeded',
  applicable_exclusive_redeemables_per_category_limit_exceeded:
    'Applicable exclusive redeemables limit per category exceeded',
  exclusion_rules_not_met: 'Redeemable cannot be applied due to exclusion rules',
  preceding_validation_failed: 'Redeemable cannot be applied due to preceding validation failure',
  no_effect: 'Redeemable has no effect on the order',
};

const identity = (loaded: LoadedRedeemable) => ({ id: loaded.body.id, object: loaded.body.object });

/** The error a refused redeemable shows (result.error), with the request's id. */
export function failureError(loaded: LoadedRedeemable, refusal: Failure, requestId: string) {
  const error =
    refusal.key === 'resource_not_found'
      ? notFound(loaded.body.object === 'voucher' ? 'voucher' : loaded.body.object, loaded.body.id)
      : new AppError(refusal.key, refusal.message);
  return { ...error.toBody(), request_id: requestId };
}

export function inapplicableItem(loaded: LoadedRedeemable, refusal: Failure, requestId: string) {
  return {
    status: 'INAPPLICABLE' as const,
    ...identity(loaded),
    result: {
      error: failureError(loaded, refusal, requestId),
      details: { key: refusal.key, message: refusal.message },
    },
  };
}

export function skippedItem(loaded: LoadedRedeemable, key: SkipKey) {
  return { status: 'SKIPPED' as const, ...identity(loaded), result: { details: { key, message: SKIP_MESSAGES[key] } } };
}
