import type { Discount, ItemTarget, OrderOrItems, Redeemable } from '../../engine/discounts/index.js';
import type { LoadedRedeemable } from './redeemable-load.js';

/**
 * A loaded redeemable as the discount engine takes it: a discount voucher's or a tier's
 * discount, a gift card's credits, or null for what does not change the order's amounts (a
 * loyalty card spending points on a reward). `items` are what the validation rules let it
 * touch (null: every item).
 */
export function engineRedeemable(loaded: LoadedRedeemable, items: ItemTarget[] | null): Redeemable | null {
  const { voucher, tier } = loaded;
  if (tier) {
    const action = JSON.parse(tier.tier.action) as { discount?: Discount };
    return action.discount ? { kind: 'discount', discount: action.discount, items } : null;
  }
  if (!voucher) return null;
  if (voucher.type === 'DISCOUNT_VOUCHER' && voucher.discount !== null) return { kind: 'discount', discount: JSON.parse(voucher.discount) as Discount, items };
  if (voucher.type === 'GIFT_VOUCHER') {
    return { kind: 'gift', credits: loaded.body.gift?.credits ?? null, balance: voucher.gift_balance ?? 0, effect: voucher.gift_effect as OrderOrItems | null, items };
  }
  return null;
}
