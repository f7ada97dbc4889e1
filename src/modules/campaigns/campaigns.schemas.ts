import { array, boolean, number, object, string, type InferType } from 'yup';
import { CAMPAIGN_TYPES, VOUCHER_TYPES } from '../../lib/enums.js';
import { limit, oneOf, order, page, querySchema, type QueryOf } from '../../lib/query-params.js';
import { jsonObjectField, longText, shortText } from '../../lib/fields.js';
import { isoDuration, validityFields } from '../../lib/validity-fields.js';
import { loyaltyTiersExpirationSchema } from './loyalty-tiers-expiration.schemas.js';
import { MAX_PROMOTION_TIERS, tierSchema } from './promotion-tiers.schemas.js';
import {
  codeConfigSchema,
  discountSchema,
  giftSchema,
  loyaltyCardTemplateSchema,
  redemptionSchema,
} from './voucher-template.schemas.js';
import { validationRulesField } from '../validation-rules/index.js';

export { CAMPAIGN_TYPES };
export const MAX_VOUCHERS_COUNT = 10_000_000;

/** The `order` values of GET /v1/campaigns (each also with a leading `-`). */
export const CAMPAIGN_ORDER_FIELDS = ['created_at', 'updated_at'] as const;

const campaignsListParams = {
  limit: limit(),
  page: page(100),
  order: order(CAMPAIGN_ORDER_FIELDS),
  campaign_type: oneOf(CAMPAIGN_TYPES),
};

/** GET /v1/campaigns: newest first unless `order` says otherwise. */
export const campaignsListQuerySchema = querySchema(campaignsListParams);
export type CampaignsListQuery = QueryOf<typeof campaignsListParams>;

/** Free-form JSON objects (metadata, referral_program): the shared size and depth limits. */
const metadata = () => jsonObjectField('${path}');

const voucherTemplate = () =>
  object({
    type: string().required().oneOf(VOUCHER_TYPES),
    discount: discountSchema(),
    gift: giftSchema(),
    loyalty_card: loyaltyCardTemplateSchema(),
    code_config: codeConfigSchema(),
    redemption: redemptionSchema(),
    is_referral_code: boolean(),
  })
    .noUnknown()
    .optional()
    .default(undefined);

const commonFields = () => ({
  description: longText('${path}').nullable(),
  type: string().oneOf(['AUTO_UPDATE', 'STATIC'] as const),
  join_once: boolean(),
  auto_join: boolean(),
  use_voucher_metadata_schema: boolean(),
  activity_duration_after_publishing: isoDuration(),
  category: shortText('${path}').nullable(),
  category_id: shortText('${path}').nullable(),
  metadata: metadata(),
  /** LOYALTY_PROGRAM only (campaign-create.service.ts, campaign-changes.service.ts). */
  loyalty_tiers_expiration: loyaltyTiersExpirationSchema(),
  ...validityFields(),
});

export const createCampaignSchema = object({
  // A name that looks like an id would be found by GET /v1/campaigns/{id or name} as that id.
  name: string()
    .required()
    .min(1)
    .max(255)
    .test(
      'not-an-id',
      'name must not start with camp_, which campaign ids do',
      (v) => v === undefined || !v.startsWith('camp_'),
    ),
  // Optional as in the real API: campaign-template.rules.ts infers it from voucher.type or promotion.
  campaign_type: string().oneOf(CAMPAIGN_TYPES),
  vouchers_count: number().integer().min(0).max(MAX_VOUCHERS_COUNT),
  voucher: voucherTemplate(),
  // A PROMOTION may start without tiers, as in the real API.
  // The reference lets `tiers` be left out or null: a PROMOTION campaign with no tiers yet.
  promotion: object({
    tiers: array(tierSchema())
      .max(MAX_PROMOTION_TIERS, `promotion.tiers must hold at most ${MAX_PROMOTION_TIERS} tiers`)
      .nullable()
      .optional(),
  })
    .optional()
    .default(undefined),
  referral_program: metadata(),
  // The rule assigned to the new campaign, in its transaction (at most one, as in the reference).
  validation_rules: validationRulesField(1),
  ...commonFields(),
}).typeError('The body must be a JSON object');

export const updateCampaignSchema = object({
  ...commonFields(),
  discount: discountSchema(),
}).typeError('The body must be a JSON object');

/** The body as sent: `campaign_type` may be left out (withCampaignType fills it in). */
export type CreateCampaignRequest = InferType<typeof createCampaignSchema>;
export type CreateCampaignBody = CreateCampaignRequest & { campaign_type: (typeof CAMPAIGN_TYPES)[number] };
export type UpdateCampaignBody = InferType<typeof updateCampaignSchema>;
