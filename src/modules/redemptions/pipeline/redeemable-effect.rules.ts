import type { ItemTarget, OrderOrItems, Redeemable } from '../../../engine/discounts/index.js';
import type { LoadedRedeemable } from './redeemable-load.service.js';

/**
 * A loaded redeemable as the discount engine takes it: a discount voucher's or a tier's
 * discount, a gift card's credits, or null for what does not change the order's amounts (a
 * loyalty card spending points on a reward). `items` are what the validation rules let it
 * touch (null: every item).
 */
export function engineRedeemable(loaded: LoadedRedeemable, items: ItemTarget[] | null): Redeemable | null {
  const { voucher, discount } = loaded;
  if (discount) return { kind: 'discount', discount, items, unit_prices: loaded.unitPrices };
  if (!voucher) return null;
  if (voucher.type === 'GIFT_VOUCHER') {
    return {
      kind: 'gift',
      credits: loaded.body.gift?.credits ?? null,
      balance: voucher.gift_balance ?? 0,
      effect: voucher.gift_effect as OrderOrItems | null,
      items,
    };
  }
  if (voucher.type === 'LOYALTY_CARD' && loaded.reward) return coinRedeemable(loaded, items);
  return null;
}

/** A COIN reward's exchange: `points_ratio` points pay `exchange_ratio` minor units. */
export function coinRatio(loaded: LoadedRedeemable): { exchange_ratio: number; points_ratio: number } | null {
  const parameters = loaded.reward?.reward.parameters;
  return parameters && 'coin' in parameters ? parameters.coin : null;
}

/** Points worth this much money, and money worth these points (whole minor units and points, in the card's favour). */
export const pointsFor = (money: number, ratio: { exchange_ratio: number; points_ratio: number }): number =>
  Math.ceil((money * ratio.points_ratio) / ratio.exchange_ratio);
const moneyFor = (points: number, ratio: { exchange_ratio: number; points_ratio: number }): number =>
  Math.floor((points * ratio.exchange_ratio) / ratio.points_ratio);

/** COIN pays for the order like gift credits: the card's points (or those asked) at the reward's ratio. */
function coinRedeemable(loaded: LoadedRedeemable, items: ItemTarget[] | null): Redeemable | null {
  const ratio = coinRatio(loaded);
  if (!ratio) return null;
  const asked = loaded.body.reward?.points;
  const balance = moneyFor(loaded.voucher!.loyalty_balance ?? 0, ratio);
  return { kind: 'gift', credits: asked === undefined ? null : moneyFor(asked, ratio), balance, items };
}
