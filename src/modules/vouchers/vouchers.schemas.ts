import { array, boolean, mixed, number, object, string } from 'yup';
import { VOUCHER_TYPES, type VoucherType } from '../../lib/enums.js';
import { integer, limit, order, page, querySchema, text, type QueryOf } from '../../lib/query-params.js';
import { MAX_VOUCHERS_COUNT } from '../campaigns/campaigns.schemas.js';
import {
  codeConfigSchema, discountSchema, isoDate, metadataSchema, redemptionSchema, validityDayOfWeek, validityFields, validityTimeframe,
  type CodeConfigBody, type ValidityInput,
} from '../campaigns/common.schemas.js';

/** The `order` values of GET /v1/vouchers (each also with a leading `-`). */
export const VOUCHER_ORDER_FIELDS = ['created_at', 'updated_at', 'code'] as const;

/** POST /v1/campaigns/{id}/vouchers: fields that override the campaign's (SPEC.md 4.4). */
export const addVouchersSchema = object({
  code: string().min(1).max(255),
  code_config: codeConfigSchema(),
  category: string(),
  category_id: string(),
  metadata: metadataSchema(),
  redemption: redemptionSchema(),
  additional_info: string().nullable(),
  start_date: isoDate(),
  expiration_date: isoDate(),
}).typeError('The body must be a JSON object');

export interface AddVouchersBody {
  code?: string;
  code_config?: CodeConfigBody;
  category?: string;
  category_id?: string;
  metadata?: Record<string, unknown>;
  redemption?: { quantity?: number | null };
  additional_info?: string | null;
  start_date?: string | null;
  expiration_date?: string | null;
}

/** PUT /v1/vouchers/{code}. */
export const updateVoucherSchema = object({
  category: string().nullable(),
  category_id: string().nullable(),
  active: boolean(),
  additional_info: string().nullable(),
  metadata: metadataSchema(),
  redemption: redemptionSchema(),
  discount: discountSchema(),
  ...validityFields(),
}).typeError('The body must be a JSON object');

export interface UpdateVoucherBody extends ValidityInput {
  category?: string | null;
  category_id?: string | null;
  active?: boolean;
  additional_info?: string | null;
  metadata?: Record<string, unknown>;
  redemption?: { quantity?: number | null };
  discount?: Record<string, unknown>;
}

const nonNegative = () => number().integer().min(0);

/** One item of POST /v1/campaigns/{id}/import (SPEC.md 4.5, voucherify-facts 1.5 and 2.8). */
export const importItemSchema = object({
  code: string().required().min(1).max(255),
  type: string().oneOf(VOUCHER_TYPES),
  loyalty_card: object({
    points: nonNegative().required(),
    balance: nonNegative(),
    next_expiration_date: isoDate(),
    next_expiration_points: nonNegative(),
    pending_points: nonNegative(),
    expired_points: nonNegative(),
    subtracted_points: nonNegative(),
  })
    .noUnknown()
    .default(undefined),
  gift: object({
    amount: nonNegative().required(),
    balance: nonNegative().required(),
    subtracted_amount: nonNegative(),
    effect: string().oneOf(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS']),
  })
    .noUnknown()
    .default(undefined),
  discount: discountSchema(),
  redemption: redemptionSchema(),
  active: boolean(),
  metadata: metadataSchema(),
  category: string(),
  start_date: isoDate(),
  expiration_date: isoDate(),
  validity_timeframe: validityTimeframe(),
  validity_day_of_week: validityDayOfWeek(),
  additional_info: string().nullable(),
}).typeError('The item must be an object');

export interface ImportItem {
  code: string;
  type?: VoucherType;
  loyalty_card?: {
    points: number;
    balance?: number;
    next_expiration_date?: string | null;
    next_expiration_points?: number;
    pending_points?: number;
    expired_points?: number;
    subtracted_points?: number;
  };
  gift?: { amount: number; balance: number; subtracted_amount?: number; effect?: string };
  discount?: Record<string, unknown>;
  redemption?: { quantity?: number | null };
  active?: boolean;
  metadata?: Record<string, unknown>;
  category?: string;
  start_date?: string | null;
  expiration_date?: string | null;
  validity_timeframe?: { duration: string; interval: string } | null;
  validity_day_of_week?: number[] | null;
  additional_info?: string | null;
}

/** The import body: an array of objects (each item is checked in the job). */
export const importBodySchema = array(
  mixed().test('object', '${path} must be an object', (v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
)
  .required('The body must be an array of vouchers')
  .min(1, 'The body must hold at least one voucher')
  .typeError('The body must be an array of vouchers');

/** `vouchers_count` of POST /v1/campaigns/{id}/vouchers (voucherify-facts 2.1): 1 by default. */
export const addVouchersQuerySchema = querySchema({ vouchers_count: integer(1, MAX_VOUCHERS_COUNT, 1) });

const vouchersListParams = { limit: limit(), page: page(100), order: order(VOUCHER_ORDER_FIELDS), campaign_id: text(), campaign: text() };

/** GET /v1/vouchers: newest first unless ordered; `campaign_id` or `campaign` (id or name) filters. */
export const vouchersListQuerySchema = querySchema(vouchersListParams);
export type VouchersListQuery = QueryOf<typeof vouchersListParams>;
