import { array, boolean, number, object, string, type InferType } from 'yup';
import { CAMPAIGN_TYPES, VOUCHER_TYPES } from '../../lib/enums.js';
import { limit, oneOf, order, page, querySchema, type QueryOf } from '../../lib/query-params.js';
import { isoDuration, metadataSchema, validityFields } from '../../lib/schema-fields.js';
import { codeConfigSchema, discountSchema, giftSchema, loyaltyCardTemplateSchema, redemptionSchema } from './voucher-template.schemas.js';

export { CAMPAIGN_TYPES };
export const MAX_VOUCHERS_COUNT = 10_000_000;

const campaignsListParams = { limit: limit(), page: page(100), order: order(['created_at', 'updated_at'] as const), campaign_type: oneOf(CAMPAIGN_TYPES) };

/** GET /v1/campaigns: newest first unless `order` says otherwise. */
export const campaignsListQuerySchema = querySchema(campaignsListParams);
export type CampaignsListQuery = QueryOf<typeof campaignsListParams>;

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
    .optional().default(undefined);

const tierSchema = () =>
  object({
    name: string().required().min(1),
    banner: string().nullable(),
    action: object({ discount: discountSchema({ required: true }) }).noUnknown().required(),
    metadata: metadataSchema(),
    active: boolean(),
    hierarchy: number().integer().min(1),
    category: string(),
    category_id: string(),
    ...validityFields(),
  });

const commonFields = () => ({
  description: string().nullable(),
  type: string().oneOf(['AUTO_UPDATE', 'STATIC'] as const),
  join_once: boolean(),
  auto_join: boolean(),
  use_voucher_metadata_schema: boolean(),
  activity_duration_after_publishing: isoDuration(),
  category: string().nullable(),
  category_id: string().nullable(),
  metadata: metadataSchema(),
  ...validityFields(),
});

export const createCampaignSchema = object({
  name: string().required().min(1).max(255),
  campaign_type: string().required().oneOf(CAMPAIGN_TYPES),
  vouchers_count: number().integer().min(0).max(MAX_VOUCHERS_COUNT),
  voucher: voucherTemplate(),
  promotion: object({ tiers: array(tierSchema()).required().min(1) }).optional().default(undefined),
  referral_program: metadataSchema(),
  ...commonFields(),
}).typeError('The body must be a JSON object');

export const updateCampaignSchema = object({
  ...commonFields(),
  discount: discountSchema(),
}).typeError('The body must be a JSON object');

export type CreateCampaignBody = InferType<typeof createCampaignSchema>;
export type UpdateCampaignBody = InferType<typeof updateCampaignSchema>;
export type TierBody = NonNullable<CreateCampaignBody['promotion']>['tiers'][number];
