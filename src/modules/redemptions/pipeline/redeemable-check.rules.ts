import { isActiveAt, presentValidity, type ValidityColumns } from '../../../engine/validity/index.js';
import { errorCatalogue, type ErrorKey } from '../../../lib/errors.js';
import type { OrderObject } from '../../orders/index.js';
import type { LoadedRedeemable } from './redeemable-load.service.js';

/**
 * The check stage: why a loaded redeemable cannot apply, as a failure code and message
 * (voucherify-facts 2.9), or null. Pure: it reads what the load stage read, the order as
 * stored and the time. Guarded counters are checked again by their own statements when the
 * redemption is written (a lost race becomes the same failure).
 */
export const FAILURE_KEYS = [
  'resource_not_found',
  'voucher_not_active',
  'voucher_expired',
  'voucher_disabled',
  'voucher_not_active_now',
  'quantity_exceeded',
  'gift_amount_exceeded',
  'loyalty_card_points_exceeded',
  'missing_customer',
  'missing_order',
  'invalid_order',
  'missing_order_items',
  'missing_reward',
  'promotion_inactive',
  'promotion_not_active_now',
  'customer_rules_violated',
  'order_rules_violated',
  'reward_out_of_stock',
] as const satisfies readonly ErrorKey[];
export type FailureKey = (typeof FAILURE_KEYS)[number];

export const isFailureKey = (key: string): key is FailureKey => (FAILURE_KEYS as readonly string[]).includes(key);

export interface Failure {
  key: FailureKey;
  message: string;
  /** The rule whose error message replaced the canonical one, if any. */
  rule_id?: string;
}

export const failure = (key: FailureKey, message?: string): Failure => ({
  key,
  message: message ?? errorCatalogue[key].message,
});

export interface CheckContext {
  now: string;
  customerId: string | null;
  order: OrderObject | null;
  /** A qualification: a loyalty card qualifies by its balance, without a reward. */
  qualifying?: boolean;
}

/** When the validity rules let it be used: before its period, after it, or outside its times. */
function validityFailure(
  columns: ValidityColumns,
  now: string,
  keys: { before: FailureKey; after: FailureKey; outside: FailureKey },
): Failure | null {
  const t = Date.parse(now);
  if (columns.start_date !== null && t < Date.parse(columns.start_date)) return failure(keys.before);
  if (columns.expiration_date !== null && t > Date.parse(columns.expiration_date)) return failure(keys.after);
  return isActiveAt(presentValidity(columns), t) ? null : failure(keys.outside);
}

const VOUCHER_KEYS = {
  before: 'voucher_not_active',
  after: 'voucher_expired',
  outside: 'voucher_not_active_now',
} as const;
const TIER_KEYS = {
  before: 'promotion_inactive',
  after: 'promotion_inactive',
  outside: 'promotion_not_active_now',
} as const;

/** The order a discount or gift needs: given, with an amount, and with items where the discount works on items. */
function orderFailure(order: OrderObject | null, needsItems: boolean): Failure | null {
  if (order === null) return failure('missing_order');
  if (order.amount === 0 && order.items.length === 0) return failure('invalid_order');
  if (needsItems && order.items.length === 0) return failure('missing_order_items');
  return null;
}

const itemsEffect = (discount: { type?: string; effect?: string | null } | null): boolean =>
  discount !== null &&
  (discount.type === 'UNIT'
    ? discount.effect === 'ADD_MISSING_ITEMS'
    : (discount.effect ?? '').startsWith('APPLY_TO_ITEMS'));

function voucherFailure(loaded: LoadedRedeemable, ctx: CheckContext): Failure | null {
  const voucher = loaded.voucher!;
  if (voucher.active === 0) return failure('voucher_disabled');
  const timing = validityFailure(voucher, ctx.now, VOUCHER_KEYS);
  if (timing) return timing;
  if (voucher.redemption_quantity !== null && voucher.redeemed_quantity >= voucher.redemption_quantity)
    return failure('quantity_exceeded');
  if (voucher.type === 'LOYALTY_CARD') return loyaltyFailure(loaded, ctx);
  if (voucher.type === 'GIFT_VOUCHER') {
    const credits = loaded.body.gift?.credits;
    if ((voucher.gift_balance ?? 0) === 0 || (credits !== undefined && credits > (voucher.gift_balance ?? 0)))
      return failure('gift_amount_exceeded');
    return orderFailure(ctx.order, voucher.gift_effect === 'APPLY_TO_ITEMS');
  }
  const discount =
    voucher.discount === null ? null : (JSON.parse(voucher.discount) as { type?: string; effect?: string | null });
  return orderFailure(ctx.order, itemsEffect(discount));
}

/** A loyalty card needs its holder's customer, a reward of its program, and the points the reward costs. */
function loyaltyFailure(loaded: LoadedRedeemable, ctx: CheckContext): Failure | null {
  if (ctx.customerId === null) return failure('missing_customer');
  if (ctx.qualifying && !loaded.body.reward)
    return (loaded.voucher!.loyalty_balance ?? 0) > 0 ? null : failure('loyalty_card_points_exceeded');
  if (!loaded.reward) return failure('missing_reward');
  const balance = loaded.voucher!.loyalty_balance ?? 0;
  if (loaded.reward.reward.type === 'COIN') {
    if ((loaded.body.reward?.points ?? 1) > balance) return failure('loyalty_card_points_exceeded');
    return orderFailure(ctx.order, false);
  }
  return pointsCost(loaded) > balance ? failure('loyalty_card_points_exceeded') : null;
}

/** What a non-COIN reward costs: the points asked, else the assignment's price. */
export const pointsCost = (loaded: LoadedRedeemable): number =>
  loaded.body.reward?.points ?? loaded.reward?.assignment.parameters?.loyalty.points ?? 0;

function tierFailure(loaded: LoadedRedeemable, ctx: CheckContext): Failure | null {
  const { tier, campaign } = loaded.tier!;
  if (tier.active === 0 || campaign.active === 0) return failure('promotion_inactive');
  const timing = validityFailure(campaign, ctx.now, TIER_KEYS) ?? validityFailure(tier, ctx.now, TIER_KEYS);
  if (timing) return timing;
  const action = JSON.parse(tier.action) as { discount?: { type?: string; effect?: string | null } };
  return orderFailure(ctx.order, itemsEffect(action.discount ?? null));
}

export function checkRedeemable(loaded: LoadedRedeemable, ctx: CheckContext): Failure | null {
  if (loaded.voucher) return voucherFailure(loaded, ctx);
  if (loaded.tier) return tierFailure(loaded, ctx);
  return failure('resource_not_found');
}
