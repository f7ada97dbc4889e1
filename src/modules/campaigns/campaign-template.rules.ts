import {
  codeTemplate,
  presentCodeConfig,
  type CodeConfigInput,
  type CodeTemplate,
  type PresentedCodeConfig,
} from '../../engine/codes/index.js';
import { VOUCHER_TYPE_BLOCK, type VoucherType } from '../../lib/enums.js';
import { AppError, invalidPayload } from '../../lib/errors.js';
import type { CampaignRow } from './campaigns.repository.js';
import type { CreateCampaignBody, CreateCampaignRequest } from './campaigns.schemas.js';
import type { CampaignType } from './campaigns.table.js';
import type { GiftTemplate, LoyaltyCardTemplate } from './voucher-template.schemas.js';

/**
 * The voucher template a campaign stores (and answers) under `voucher`: what every voucher
 * of the campaign starts from. Campaigns own it; vouchers read it to draft new vouchers.
 */
export interface StoredTemplate {
  type: VoucherType;
  discount?: Record<string, unknown>;
  gift?: GiftTemplate;
  loyalty_card?: LoyaltyCardTemplate;
  code_config: PresentedCodeConfig;
  redemption: { quantity: number | null };
  is_referral_code: boolean;
}

const VOUCHER_TYPE: Record<Exclude<CampaignType, 'PROMOTION'>, VoucherType> = {
  DISCOUNT_COUPONS: 'DISCOUNT_VOUCHER',
  REFERRAL_PROGRAM: 'DISCOUNT_VOUCHER',
  GIFT_VOUCHERS: 'GIFT_VOUCHER',
  LOYALTY_PROGRAM: 'LOYALTY_CARD',
};

export const invalidCodeConfig = (details: string): AppError => new AppError('invalid_code_config', details);

/** A checked code template, or 400 invalid_code_config. */
export function templateFor(config: CodeConfigInput | undefined): CodeTemplate {
  const result = codeTemplate(config);
  if (!result.ok) throw invalidCodeConfig(result.error);
  return result.template;
}

export const templateOf = (campaign: CampaignRow): StoredTemplate | null =>
  campaign.voucher === null ? null : (JSON.parse(campaign.voucher) as StoredTemplate);

/** The campaign's template, or 400 for a campaign without vouchers (a PROMOTION). */
export function requireTemplate(campaign: CampaignRow): StoredTemplate {
  const template = templateOf(campaign);
  if (!template)
    throw new AppError(
      'invalid_campaign',
      `Campaign ${campaign.id} is a PROMOTION campaign; it holds promotion tiers, not vouchers`,
    );
  return template;
}

const CAMPAIGN_TYPE_OF_VOUCHER: Record<VoucherType, CampaignType> = {
  DISCOUNT_VOUCHER: 'DISCOUNT_COUPONS',
  GIFT_VOUCHER: 'GIFT_VOUCHERS',
  LOYALTY_CARD: 'LOYALTY_PROGRAM',
};

/**
 * The body with its campaign type: as sent, else inferred as the real API does: `promotion`
 * makes a PROMOTION, `referral_program` a REFERRAL_PROGRAM, else `voucher.type` tells.
 */
export function withCampaignType(body: CreateCampaignRequest): CreateCampaignBody {
  if (body.campaign_type) return { ...body, campaign_type: body.campaign_type };
  const inferred = body.promotion
    ? 'PROMOTION'
    : body.referral_program
      ? 'REFERRAL_PROGRAM'
      : body.voucher && CAMPAIGN_TYPE_OF_VOUCHER[body.voucher.type as VoucherType];
  if (!inferred)
    throw invalidPayload('campaign_type is a required field when neither voucher.type nor promotion is given');
  return { ...body, campaign_type: inferred };
}

/** A card template (loyalty or gift) without the field the real API accepts and ignores: a new card's balance. */
const withoutIgnored = <T extends { balance?: number }>(card: T | undefined): Omit<T, 'balance'> | undefined => {
  if (!card) return card;
  const { balance: _ignored, ...kept } = card;
  return kept;
};

function checkPromotion(body: CreateCampaignBody): null {
  if (body.voucher) throw invalidPayload('voucher is not allowed in a PROMOTION campaign; give promotion.tiers');
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
  if (voucher.type !== expected)
    throw invalidPayload(`voucher.type must be ${expected} in a ${body.campaign_type} campaign`);
  return templateOfVoucher(voucher, expected, {
    path: 'voucher.',
    isReferral: body.campaign_type === 'REFERRAL_PROGRAM',
  });
}

/** A voucher body's own fields: its kind's block, code_config and redemption. */
export interface VoucherTemplateInput {
  discount?: Record<string, unknown>;
  gift?: GiftTemplate;
  loyalty_card?: LoyaltyCardTemplate;
  code_config?: CodeConfigInput;
  redemption?: { quantity?: number | null };
}

/**
 * The template of a `type` voucher, from a campaign's `voucher` block or a standalone
 * voucher's body (POST /v1/vouchers): exactly the type's block (discount, gift or
 * loyalty_card), the checked code_config (defaults filled in) and the redemption quantity
 * (null: unlimited). `path` prefixes the field names in messages.
 */
export function templateOfVoucher(
  voucher: VoucherTemplateInput,
  type: VoucherType,
  options: { path: string; isReferral: boolean },
): StoredTemplate {
  const block = VOUCHER_TYPE_BLOCK[type];
  if (voucher[block] === undefined) throw invalidPayload(`${options.path}${block} is a required field`);
  for (const other of Object.values(VOUCHER_TYPE_BLOCK)) {
    if (other !== block && voucher[other] !== undefined)
      throw invalidPayload(`${options.path}${other} is not allowed for a ${type}`);
  }
  return {
    type,
    [block]: block === 'discount' ? voucher.discount : withoutIgnored(voucher[block]),
    code_config: presentCodeConfig(templateFor(voucher.code_config)),
    redemption: { quantity: voucher.redemption?.quantity ?? null },
    is_referral_code: options.isReferral,
  };
}
