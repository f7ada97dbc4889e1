import { presentCodeConfig } from '../../engine/codes/index.js';
import { invalidPayload } from '../../lib/errors.js';
import { templateFor } from '../vouchers/code-space.service.js';
import type { StoredTemplate } from '../vouchers/voucher-draft.js';
import type { CreateCampaignBody } from './campaigns.schemas.js';
import type { CampaignType } from './campaigns.table.js';

const VOUCHER_TYPE: Record<Exclude<CampaignType, 'PROMOTION'>, StoredTemplate['type']> = {
  DISCOUNT_COUPONS: 'DISCOUNT_VOUCHER',
  REFERRAL_PROGRAM: 'DISCOUNT_VOUCHER',
  GIFT_VOUCHERS: 'GIFT_VOUCHER',
  LOYALTY_PROGRAM: 'LOYALTY_CARD',
};

const DETAIL_OF: Record<StoredTemplate['type'], 'discount' | 'gift' | 'loyalty_card'> = {
  DISCOUNT_VOUCHER: 'discount',
  GIFT_VOUCHER: 'gift',
  LOYALTY_CARD: 'loyalty_card',
};

function checkPromotion(body: CreateCampaignBody): null {
  if (body.voucher) throw invalidPayload('voucher is not allowed in a PROMOTION campaign; give promotion.tiers');
  if (!body.promotion) throw invalidPayload('promotion.tiers is required for a PROMOTION campaign');
  if ((body.vouchers_count ?? 0) > 0) throw invalidPayload('vouchers_count must be 0 for a PROMOTION campaign');
  return null;
}

/**
 * The voucher template a campaign stores, from the create body: the voucher type that the
 * campaign type demands, exactly one of discount/gift/loyalty_card to match, the checked
 * code_config (defaults filled in) and the redemption quantity (null: unlimited).
 */
export function templateFromBody(body: CreateCampaignBody): StoredTemplate | null {
  if (body.campaign_type === 'PROMOTION') return checkPromotion(body);
  if (body.promotion) throw invalidPayload('promotion is allowed only in a PROMOTION campaign');
  if (body.referral_program && body.campaign_type !== 'REFERRAL_PROGRAM') {
    throw invalidPayload('referral_program is allowed only in a REFERRAL_PROGRAM campaign');
  }
  const voucher = body.voucher;
  if (!voucher) throw invalidPayload('voucher is a required field');
  const expected = VOUCHER_TYPE[body.campaign_type];
  if (voucher.type !== expected) throw invalidPayload(`voucher.type must be ${expected} in a ${body.campaign_type} campaign`);
  const detail = DETAIL_OF[expected];
  if (voucher[detail] === undefined) throw invalidPayload(`voucher.${detail} is a required field`);
  for (const other of Object.values(DETAIL_OF)) {
    if (other !== detail && voucher[other] !== undefined) throw invalidPayload(`voucher.${other} is not allowed for a ${expected}`);
  }
  return {
    type: expected,
    [detail]: voucher[detail],
    code_config: presentCodeConfig(templateFor(voucher.code_config)),
    redemption: { quantity: voucher.redemption?.quantity ?? null },
    is_referral_code: body.campaign_type === 'REFERRAL_PROGRAM',
  };
}
