import type { NewRedemptionRow } from '../../src/modules/redemptions/redemptions.repository.js';

/**
 * Redemption records as the redeem pipeline stores them, for the read side's tests written
 * before that pipeline landed (they seed through the storage commit's insertRedemptions).
 * Each builder takes what distinguishes a record; the snapshots are the shapes the reference
 * answers (SimpleCustomer, OrderCalculated, the voucher with its campaign).
 */
export interface Who {
  id: string;
  source_id: string;
}

/** The customer a record shows (SimpleCustomer). */
export const simpleCustomer = (who: Who) => ({
  id: who.id,
  name: null,
  email: null,
  source_id: who.source_id,
  metadata: {},
  object: 'customer',
});

const customerSnapshot = (who: Who | null) => (who === null ? null : JSON.stringify(simpleCustomer(who)));

/** The order a record shows (OrderCalculated): 1000 with `discount` off. */
export const orderObject = (id: string, at: string, who: Who | null, discount: number) => ({
  id,
  source_id: null,
  status: 'PAID',
  amount: 1000,
  discount_amount: discount,
  total_discount_amount: discount,
  total_amount: 1000 - discount,
  applied_discount_amount: discount,
  total_applied_discount_amount: discount,
  items: [{ object: 'order_item', product_id: 'prod_1', quantity: 1, amount: 1000, price: 1000 }],
  metadata: {},
  object: 'order',
  created_at: at,
  updated_at: null,
  customer_id: who?.id ?? null,
  referrer_id: null,
});

const orderSnapshot = (id: string, at: string, who: Who | null, discount: number) =>
  JSON.stringify(orderObject(id, at, who, discount));

const voucherSnapshot = (id: string, code: string, campaign: { id: string; name: string } | null) =>
  JSON.stringify({ id, code, campaign: campaign?.name ?? null, campaign_id: campaign?.id ?? null, object: 'voucher' });

interface Common {
  at: string;
  who: Who | null;
  tracking?: string | null;
}

const common = ({ at, who, tracking }: Common) => ({
  created_at: at,
  customer_id: who?.id ?? null,
  tracking_id: tracking === undefined ? (who?.source_id ?? null) : tracking,
  metadata: '{}',
  channel_id: 'app_test',
  channel_type: 'API' as const,
  customer_snapshot: customerSnapshot(who),
});

/** A stacked request's parent, with its children's ids in related_redemptions. */
export const parentRow = (id: string, c: Common & { order: string; children: string[] }): NewRedemptionRow => ({
  ...common(c),
  id,
  object: 'redemption',
  result: 'SUCCESS',
  status: 'SUCCEEDED',
  related_object_type: 'redemption',
  related_object_id: id,
  order_id: c.order,
  order_snapshot: orderSnapshot(c.order, c.at, c.who, 100),
  related_redemptions: JSON.stringify({
    rollbacks: [],
    redemptions: c.children.map((child) => ({ id: child, date: c.at })),
  }),
});

export interface VoucherRef {
  id: string;
  code: string;
  campaign: { id: string; name: string } | null;
}

/** A child redeeming a voucher (a gift card when `gift` is set). */
export const voucherChildRow = (
  id: string,
  c: Common & { parent: string; order: string; voucher: VoucherRef; gift?: number },
): NewRedemptionRow => ({
  ...common(c),
  id,
  object: 'redemption',
  parent_id: c.parent,
  result: 'SUCCESS',
  status: 'SUCCEEDED',
  related_object_type: 'voucher',
  related_object_id: c.voucher.id,
  related_object_parent_id: c.voucher.campaign?.id ?? null,
  voucher_id: c.voucher.id,
  voucher_code: c.voucher.code,
  campaign_id: c.voucher.campaign?.id ?? null,
  campaign_name: c.voucher.campaign?.name ?? null,
  voucher_snapshot: voucherSnapshot(c.voucher.id, c.voucher.code, c.voucher.campaign),
  order_id: c.order,
  order_snapshot: orderSnapshot(c.order, c.at, c.who, 100),
  ...(c.gift === undefined ? {} : { amount: c.gift, gift_amount: c.gift }),
});

/** A child applying a promotion tier of a PROMOTION campaign. */
export const tierChildRow = (
  id: string,
  c: Common & { parent: string; order: string; tier: string; campaign: { id: string; name: string } },
): NewRedemptionRow => ({
  ...common(c),
  id,
  object: 'redemption',
  parent_id: c.parent,
  result: 'SUCCESS',
  status: 'SUCCEEDED',
  related_object_type: 'promotion_tier',
  related_object_id: c.tier,
  related_object_parent_id: c.campaign.id,
  promotion_tier_id: c.tier,
  campaign_id: c.campaign.id,
  campaign_name: c.campaign.name,
  order_id: c.order,
  order_snapshot: orderSnapshot(c.order, c.at, c.who, 100),
  promotion_tier_snapshot: JSON.stringify({
    id: c.tier,
    name: 'Tier',
    campaign: { id: c.campaign.id, object: 'campaign' },
    object: 'promotion_tier',
  }),
});

/** A failed redemption of a voucher (rf_): its failure, no order. */
export const failedRow = (
  id: string,
  c: Common & { voucher: VoucherRef; code: string; message: string },
): NewRedemptionRow => ({
  ...common(c),
  id,
  object: 'redemption',
  result: 'FAILURE',
  status: 'FAILED',
  failure_code: c.code,
  failure_message: c.message,
  related_object_type: 'voucher',
  related_object_id: c.voucher.id,
  related_object_parent_id: c.voucher.campaign?.id ?? null,
  voucher_id: c.voucher.id,
  voucher_code: c.voucher.code,
  campaign_id: c.voucher.campaign?.id ?? null,
  campaign_name: c.voucher.campaign?.name ?? null,
  voucher_snapshot: voucherSnapshot(c.voucher.id, c.voucher.code, c.voucher.campaign),
});

/** A rollback record (rr_) of a gift card child: the credits returned. */
export const rollbackRow = (
  id: string,
  c: Common & { of: string; order: string; voucher: VoucherRef; gift: number },
): NewRedemptionRow => ({
  ...common(c),
  id,
  object: 'redemption_rollback',
  parent_id: c.of,
  result: 'SUCCESS',
  status: 'SUCCEEDED',
  reason: 'returned',
  amount: -c.gift,
  gift_amount: -c.gift,
  related_object_type: 'voucher',
  related_object_id: c.voucher.id,
  related_object_parent_id: c.voucher.campaign?.id ?? null,
  voucher_id: c.voucher.id,
  voucher_code: c.voucher.code,
  campaign_id: c.voucher.campaign?.id ?? null,
  campaign_name: c.voucher.campaign?.name ?? null,
  order_id: c.order,
  order_snapshot: orderSnapshot(c.order, c.at, c.who, 0),
});
