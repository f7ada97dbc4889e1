import type { CampaignView } from '../campaigns/campaigns.presenter.js';
import type { CustomerObject } from '../customers/customers.presenter.js';
import type { VoucherView } from '../vouchers/vouchers.presenter.js';

/**
 * The publication a new member's card makes (the reference's ListPublicationsItemValidSingleVoucher),
 * as the `customer.publication.succeeded` event carries it. promo keeps no publications list:
 * the event is the record.
 */
export interface PublicationInput {
  id: string;
  at: string;
  customer: CustomerObject;
  card: VoucherView;
  source_id: string | null;
  metadata: Record<string, unknown>;
  channel: string;
}

export const presentPublication = (p: PublicationInput) => ({
  id: p.id,
  object: 'publication' as const,
  created_at: p.at,
  customer_id: p.customer.id,
  ...(p.customer.source_id === undefined ? {} : { tracking_id: p.customer.source_id }),
  metadata: p.metadata,
  channel: p.channel,
  source_id: p.source_id,
  customer: p.customer,
  vouchers: [p.card.code],
  vouchers_id: [p.card.id],
  result: 'SUCCESS' as const,
  voucher: {
    code: p.card.code,
    object: 'voucher' as const,
    campaign: p.card.campaign,
    loyalty_card: p.card.loyalty_card,
    is_referral_code: p.card.is_referral_code,
  },
});

const withoutNulls = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/** The short campaign events carry (the reference's SimpleCampaign): set fields only. */
export function presentSimpleCampaign(c: CampaignView) {
  const voucher = c.voucher as { redemption?: { quantity: number | null } } | undefined;
  return withoutNulls({
    id: c.id,
    name: c.name,
    campaign_type: c.campaign_type,
    type: c.type,
    is_referral_code: false,
    voucher: voucher && { ...voucher, redemption: { quantity: voucher.redemption?.quantity ?? null, redeemed_quantity: 0 } },
    auto_join: c.auto_join,
    join_once: c.join_once,
    active: c.active,
    category_id: c.category_id,
    category: c.category,
    categories: c.categories,
    metadata: c.metadata,
    start_date: c.start_date,
    expiration_date: c.expiration_date,
    description: c.description,
    created_at: c.created_at,
    updated_at: c.updated_at,
    object: c.object,
  });
}
