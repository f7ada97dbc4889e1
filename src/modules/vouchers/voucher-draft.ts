import type { StoredTemplate } from '../campaigns/campaign-template.js';
import type { CampaignRow } from '../campaigns/campaigns.service.js';
import { kindColumnsFromTemplate } from './kinds/index.js';
import type { VoucherTable } from './vouchers.table.js';

/** Every column of a new voucher except its id, code and times. */
export type VoucherDraft = Omit<VoucherTable, 'seq' | 'id' | 'code' | 'created_at' | 'updated_at'>;

/** A voucher row ready to insert. */
export type VoucherInsertRow = Omit<VoucherTable, 'seq'>;

/** What a new voucher of the campaign inherits: its template (through its kind), validity and category. */
export function draftFromCampaign(campaign: CampaignRow, template: StoredTemplate): VoucherDraft {
  return {
    campaign_id: campaign.id,
    category_id: campaign.category_id,
    type: template.type,
    ...kindColumnsFromTemplate(template),
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
