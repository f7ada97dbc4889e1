import type { PresentedCodeConfig } from '../../engine/codes/index.js';
import type { CampaignRow } from '../campaigns/campaign-lookup.service.js';
import type { VoucherTable, VoucherType } from './vouchers.table.js';

/** The voucher template a campaign stores (and answers) under `voucher`. */
export interface StoredTemplate {
  type: VoucherType;
  discount?: Record<string, unknown>;
  gift?: { amount: number; effect?: string };
  loyalty_card?: { points: number; expiration_rules?: Record<string, unknown> };
  code_config: PresentedCodeConfig;
  redemption: { quantity: number | null };
  is_referral_code: boolean;
}

/** Every column of a new voucher except its id, code and times. */
export type VoucherDraft = Omit<VoucherTable, 'seq' | 'id' | 'code' | 'created_at' | 'updated_at'>;

/** A voucher row ready to insert. */
export type VoucherInsertRow = Omit<VoucherTable, 'seq'>;

export const templateOf = (campaign: CampaignRow): StoredTemplate | null =>
  campaign.voucher === null ? null : (JSON.parse(campaign.voucher) as StoredTemplate);

/** What a new voucher of the campaign inherits: its template, validity and category. */
export function draftFromCampaign(campaign: CampaignRow, template: StoredTemplate): VoucherDraft {
  const gift = template.type === 'GIFT_VOUCHER' ? template.gift : undefined;
  const card = template.type === 'LOYALTY_CARD' ? template.loyalty_card : undefined;
  return {
    campaign_id: campaign.id,
    category_id: campaign.category_id,
    type: template.type,
    discount: template.type === 'DISCOUNT_VOUCHER' && template.discount ? JSON.stringify(template.discount) : null,
    gift_amount: gift ? gift.amount : null,
    gift_subtracted_amount: gift ? 0 : null,
    gift_balance: gift ? gift.amount : null,
    gift_effect: gift ? (gift.effect ?? null) : null,
    loyalty_points: card ? card.points : null,
    loyalty_balance: card ? card.points : null,
    loyalty_next_expiration_date: null,
    loyalty_next_expiration_points: card ? 0 : null,
    loyalty_pending_points: card ? 0 : null,
    loyalty_expired_points: card ? 0 : null,
    loyalty_subtracted_points: card ? 0 : null,
    start_date: campaign.start_date,
    expiration_date: campaign.expiration_date,
    validity_timeframe: campaign.validity_timeframe,
    validity_day_of_week: campaign.validity_day_of_week,
    validity_hours: campaign.validity_hours,
    active: 1,
    additional_info: null,
    metadata: '{}',
    is_referral_code: campaign.campaign_type === 'REFERRAL_PROGRAM' || template.is_referral_code ? 1 : 0,
    holder_id: null,
    referrer_id: null,
    redemption_quantity: template.redemption.quantity,
    redeemed_quantity: 0,
    redeemed_points: 0,
    publish_count: 0,
  };
}

export const rowFromDraft = (draft: VoucherDraft, id: string, code: string, now: string): VoucherInsertRow => ({
  ...draft,
  id,
  code,
  created_at: now,
  updated_at: null,
});
