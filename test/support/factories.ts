/**
 * Request bodies that many test files build: one place for the suite's factories. Each gives
 * the smallest valid body; `extra` fields override or add to it.
 */
export const percentDiscount = { type: 'PERCENT', percent_off: 10 };

/** A DISCOUNT_COUPONS campaign body. */
export const discountCampaign = (
  name: string,
  extra: Record<string, unknown> = {},
  voucher: Record<string, unknown> = {},
) => ({
  name,
  campaign_type: 'DISCOUNT_COUPONS',
  voucher: { type: 'DISCOUNT_VOUCHER', discount: percentDiscount, ...voucher },
  ...extra,
});

/** A LOYALTY_PROGRAM campaign body whose cards start at 0 points. */
export const loyaltyCampaign = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  campaign_type: 'LOYALTY_PROGRAM',
  voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  ...extra,
});
