import { array, boolean, number, object, string } from 'yup';
import {
  codeConfigSchema, discountSchema, giftSchema, loyaltyCardTemplateSchema, metadataSchema, redemptionSchema,
  validityFields, type CodeConfigBody, type ValidityInput,
} from './common.schemas.js';
import { CAMPAIGN_TYPES, VOUCHER_TYPES, type CampaignType, type VoucherType } from '../../lib/enums.js';
import { limit, oneOf, order, page, querySchema, type QueryOf } from '../../lib/query-params.js';

export { CAMPAIGN_TYPES };
export const MAX_VOUCHERS_COUNT = 10_000_000;

/** The `order` values of GET /v1/campaigns (each also with a leading `-`). */
export const CAMPAIGN_ORDER_FIELDS = ['created_at', 'updated_at'] as const;

const campaignsListParams = { limit: limit(), page: page(100), order: order(CAMPAIGN_ORDER_FIELDS), campaign_type: oneOf(CAMPAIGN_TYPES) };

/** GET /v1/campaigns: newest first unless `order` says otherwise. */
export const campaignsListQuerySchema = querySchema(campaignsListParams);
export type CampaignsListQuery = QueryOf<typeof campaignsListParams>;

const ISO_DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;

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
    .default(undefined);

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
  type: string().oneOf(['AUTO_UPDATE', 'STATIC']),
  join_once: boolean(),
  auto_join: boolean(),
  use_voucher_metadata_schema: boolean(),
  activity_duration_after_publishing: string().nullable().matches(ISO_DURATION, { message: '${path} must be an ISO 8601 duration', excludeEmptyString: true }),
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
  promotion: object({ tiers: array(tierSchema()).required().min(1) }).default(undefined),
  referral_program: metadataSchema(),
  ...commonFields(),
}).typeError('The body must be a JSON object');

export const updateCampaignSchema = object({
  ...commonFields(),
  discount: discountSchema(),
}).typeError('The body must be a JSON object');

export interface VoucherTemplateBody {
  type: VoucherType;
  discount?: Record<string, unknown>;
  gift?: { amount: number; effect?: string };
  loyalty_card?: { points: number; expiration_rules?: Record<string, unknown> };
  code_config?: CodeConfigBody;
  redemption?: { quantity?: number | null };
  is_referral_code?: boolean;
}

export interface TierBody extends ValidityInput {
  name: string;
  banner?: string | null;
  action: { discount: Record<string, unknown> };
  metadata?: Record<string, unknown>;
  active?: boolean;
  hierarchy?: number;
  category?: string;
  category_id?: string;
}

export interface CampaignCommonBody extends ValidityInput {
  description?: string | null;
  type?: 'AUTO_UPDATE' | 'STATIC';
  join_once?: boolean;
  auto_join?: boolean;
  use_voucher_metadata_schema?: boolean;
  activity_duration_after_publishing?: string | null;
  category?: string | null;
  category_id?: string | null;
  metadata?: Record<string, unknown>;
}

export interface CreateCampaignBody extends CampaignCommonBody {
  name: string;
  campaign_type: CampaignType;
  vouchers_count?: number;
  voucher?: VoucherTemplateBody;
  promotion?: { tiers: TierBody[] };
  referral_program?: Record<string, unknown>;
}

export interface UpdateCampaignBody extends CampaignCommonBody {
  discount?: Record<string, unknown>;
}

