import type { StoredTemplate, CampaignRow } from '../campaigns/index.js';
import { kindColumnsFromTemplate } from './kinds/kinds.rules.js';
import type { VoucherTable } from './vouchers.table.js';

/** Every column of a new voucher except its id, code and times. */
/** The session locks' reservation columns (sql/0020) start at their default, 0. */
type Reserved = 'reserved_quantity' | 'reserved_credits' | 'reserved_points';
export type VoucherDraft = Omit<VoucherTable, 'seq' | 'id' | 'code' | 'created_at' | 'updated_at' | Reserved>;

/** A voucher row ready to insert. */
export type VoucherInsertRow = Omit<VoucherTable, 'seq' | Reserved>;

/** What a new voucher takes from its owner (its campaign, or nothing for a standalone voucher). */
export type DraftOwner = Pick<
  VoucherTable,
  | 'campaign_id'
  | 'category_id'
  | 'start_date'
  | 'expiration_date'
  | 'validity_timeframe'
  | 'validity_day_of_week'
  | 'validity_hours'
> & { is_referral_code: boolean };

/** The columns that are not known yet: nothing about a standalone voucher but its template. */
export const NO_OWNER: DraftOwner = {
  campaign_id: null,
  category_id: null,
  start_date: null,
  expiration_date: null,
  validity_timeframe: null,
  validity_day_of_week: null,
  validity_hours: null,
  is_referral_code: false,
};

/**
 * The one way a voucher row is drafted, for every path that creates one (campaign
 * generation, a chosen code, import, a standalone voucher): its template (through its kind),
 * and its owner's validity and category; the caller then applies its body's overrides.
 */
export function draftFromTemplate(template: StoredTemplate, owner: DraftOwner): VoucherDraft {
  return {
    ...owner,
    type: template.type,
    ...kindColumnsFromTemplate(template),
    active: 1,
    additional_info: null,
    metadata: '{}',
    is_referral_code: owner.is_referral_code || template.is_referral_code ? 1 : 0,
    holder_id: null,
    referrer_id: null,
    redemption_quantity: template.redemption.quantity,
    redeemed_quantity: 0,
    redeemed_points: 0,
    publish_count: 0,
  };
}

/** What a new voucher of the campaign inherits: its template, validity and category. */
export const draftFromCampaign = (campaign: CampaignRow, template: StoredTemplate): VoucherDraft =>
  draftFromTemplate(template, {
    campaign_id: campaign.id,
    category_id: campaign.category_id,
    start_date: campaign.start_date,
    expiration_date: campaign.expiration_date,
    validity_timeframe: campaign.validity_timeframe,
    validity_day_of_week: campaign.validity_day_of_week,
    validity_hours: campaign.validity_hours,
    is_referral_code: campaign.campaign_type === 'REFERRAL_PROGRAM',
  });

export const rowFromDraft = (draft: VoucherDraft, id: string, code: string, now: string): VoucherInsertRow => ({
  ...draft,
  id,
  code,
  created_at: now,
  updated_at: null,
});
