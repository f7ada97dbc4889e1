import { array, boolean, lazy, mixed, object, string, type InferType, type Schema } from 'yup';
import { VOUCHER_TYPE_BLOCK, VOUCHER_TYPES, type VoucherType } from '../../lib/enums.js';
import { invalidQueryParams } from '../../lib/errors.js';
import { parse } from '../../lib/validate.js';
import { date, integer, limit, order, page, querySchema, text, type QueryOf } from '../../lib/query-params.js';
import { isPlainObject, jsonObjectField, longText, objectRule, shortText, voucherCodeField } from '../../lib/fields.js';
import { isoDate, validityDayOfWeek, validityFields, validityTimeframe } from '../../lib/validity-fields.js';
import {
  MAX_VOUCHERS_COUNT,
  codeConfigSchema,
  discountSchema,
  giftSchema,
  loyaltyCardTemplateSchema,
  redemptionSchema,
} from '../campaigns/index.js';
import { kindImportFields } from './kinds/kinds.rules.js';
import type { Filter } from '../../engine/conditions/index.js';
import { withFiltersAsParams } from './voucher-list.filters.js';
import { validationRulesField } from '../validation-rules/index.js';

const metadata = () => jsonObjectField('${path}');
const additionalInfo = () => longText('${path}').nullable();

/** The `order` values of GET /v1/vouchers (each also with a leading `-`). */
export const VOUCHER_ORDER_FIELDS = ['created_at', 'updated_at', 'code'] as const;

/** POST /v1/campaigns/{id}/vouchers: fields that override the campaign's (the reference's "Add Vouchers to Campaign"). */
export const addVouchersSchema = object({
  code: voucherCodeField().optional(),
  code_config: codeConfigSchema(),
  category: shortText('${path}'),
  category_id: shortText('${path}'),
  metadata: metadata(),
  redemption: redemptionSchema(),
  additional_info: additionalInfo(),
  start_date: isoDate(),
  expiration_date: isoDate(),
}).typeError('The body must be a JSON object');

export type AddVouchersBody = InferType<typeof addVouchersSchema>;

/**
 * add-vouchers-to-campaign's body as the real API takes it: the fields above, or a body that
 * is not an object at all (a client that passes the count as the body), which names no field.
 * The count is the `vouchers_count` query parameter either way.
 */
export const addVouchersBodySchema = lazy((body: unknown) =>
  isPlainObject(body) ? addVouchersSchema : mixed().nullable(),
) as unknown as Schema<unknown>;

/** The fields a checked add-vouchers body names: none for a body that is not an object. */
export const addVouchersFields = (body: unknown): AddVouchersBody =>
  isPlainObject(body) ? (body as AddVouchersBody) : {};

/** What a voucher holds of its own, beside its kind: set at creation, changed by PUT. */
const voucherOwnFields = () => ({
  category: shortText('${path}').nullable(),
  category_id: shortText('${path}').nullable(),
  active: boolean(),
  additional_info: additionalInfo(),
  metadata: metadata(),
  redemption: redemptionSchema(),
  ...validityFields(),
});

const KIND_FIELDS = ['type', 'discount', 'gift', 'loyalty_card'] as const;
const CAMPAIGN_GIVES = ['active', 'validity_timeframe', 'validity_day_of_week', 'validity_hours'] as const;

/**
 * A voucher outside a campaign names its type, or carries exactly the one block that tells it;
 * one of a campaign takes its kind, rules, activity and validity from the campaign.
 */
function campaignFieldsProblem(body: Record<string, unknown>): string | undefined {
  if ((body.campaign_id ?? body.campaign) === undefined) {
    const blocks = VOUCHER_TYPES.filter((type) => body[VOUCHER_TYPE_BLOCK[type]] !== undefined);
    return body.type !== undefined || blocks.length === 1
      ? undefined
      : 'type is a required field when the body does not carry exactly one of discount, gift and loyalty_card';
  }
  const kindField = KIND_FIELDS.find((field) => body[field] !== undefined);
  if (kindField) return `${kindField} is not allowed with a campaign: the campaign's voucher template gives it`;
  if (Array.isArray(body.validation_rules) && body.validation_rules.length > 0)
    return "validation_rules apply to a voucher outside a campaign: a campaign's vouchers follow the campaign's rules";
  if (CAMPAIGN_GIVES.some((field) => body[field] !== undefined))
    return 'active and validity rules of a campaign voucher come from its campaign';
  return undefined;
}

/**
 * POST /v1/vouchers and POST /v1/vouchers/{code} (the reference's VouchersCreateRequestBody):
 * a voucher outside any campaign, or, with `campaign`/`campaign_id`, one more voucher of
 * that campaign (then its type and blocks come from the campaign). `type` may be left out
 * when the body's block (discount, gift, loyalty_card) tells it.
 */
export const createVoucherSchema = object({
  code: voucherCodeField().optional(),
  campaign: shortText('${path}'),
  campaign_id: shortText('${path}'),
  type: string().oneOf(VOUCHER_TYPES),
  discount: discountSchema(),
  gift: giftSchema(),
  loyalty_card: loyaltyCardTemplateSchema(),
  code_config: codeConfigSchema(),
  // The rules assigned to the new voucher, in its transaction (validation-rules module).
  validation_rules: validationRulesField(10),
  ...voucherOwnFields(),
})
  .typeError('The body must be a JSON object')
  .test(objectRule('campaign-fields', campaignFieldsProblem));

export type CreateVoucherBody = InferType<typeof createVoucherSchema>;

/** POST /v1/vouchers/{code}: the path's code, checked as a body's. */
export const voucherCodeSchema = object({ code: voucherCodeField().optional() });

/** PUT /v1/vouchers/{code}. */
export const updateVoucherSchema = object({
  ...voucherOwnFields(),
  discount: discountSchema(),
}).typeError('The body must be a JSON object');

export type UpdateVoucherBody = InferType<typeof updateVoucherSchema>;

const isVoucherType = (value: unknown): value is VoucherType => VOUCHER_TYPES.includes(value as VoucherType);

/**
 * One item of POST /v1/campaigns/{id}/import ("Import Vouchers to Campaign", voucherify-facts 1.5 and 2.8) in a
 * campaign of `campaignType` vouchers: an item's `type` defaults to it and may not differ,
 * and the item's kind decides which block it must carry (kinds/).
 */
const itemTypeField = (campaignType: VoucherType) =>
  string()
    .oneOf(VOUCHER_TYPES)
    .test('campaign-type', '', function sameType(type) {
      if (!isVoucherType(type) || type === campaignType) return true;
      return this.createError({ message: `type ${type} does not match the campaign's ${campaignType} vouchers` });
    });

/**
 * An item's `type` alone, checked before the rest: an item of another kind fails for that
 * reason only, not for the blocks this campaign's kind would need.
 */
export const importItemTypeSchema = (campaignType: VoucherType) =>
  object({ type: itemTypeField(campaignType) }).typeError('The item must be an object');

export const importItemSchema = (campaignType: VoucherType) =>
  object({
    code: voucherCodeField().required(),
    type: itemTypeField(campaignType),
    ...kindImportFields(campaignType),
    redemption: redemptionSchema(),
    active: boolean(),
    metadata: metadata(),
    category: shortText('${path}'),
    start_date: isoDate(),
    expiration_date: isoDate(),
    validity_timeframe: validityTimeframe(),
    validity_day_of_week: validityDayOfWeek(),
    additional_info: additionalInfo(),
  }).typeError('The item must be an object');

export type ImportItem = InferType<ReturnType<typeof importItemSchema>>;

/** The import body: an array of objects (each item is checked in the job). */
export const importBodySchema = array(
  mixed<Record<string, unknown>>().test(
    'object',
    '${path} must be an object',
    (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  ),
)
  .required('The body must be an array of vouchers')
  .min(1, 'The body must hold at least one voucher')
  .typeError('The body must be an array of vouchers');

/** `vouchers_count` of POST /v1/campaigns/{id}/vouchers (voucherify-facts 2.1): 1 by default. */
export const addVouchersQuerySchema = querySchema({ vouchers_count: integer(1, MAX_VOUCHERS_COUNT, 1) });

const vouchersListParams = {
  limit: limit(),
  page: page(100),
  order: order(VOUCHER_ORDER_FIELDS),
  campaign_id: text(),
  campaign: text(),
  category: text(),
  customer: text(),
  'created_at[before]': date(),
  'created_at[after]': date(),
  'updated_at[before]': date(),
  'updated_at[after]': date(),
};

/** The query keys GET /v1/vouchers knows; other bracketed keys (`filters[...]`, `created_at[x]`) are refused. */
export const VOUCHER_LIST_PARAMS = Object.keys(vouchersListParams);

/** Filters no index serves together: the list would read every voucher to answer them. */
function unservedFilterProblem(query: Record<string, unknown>): string | undefined {
  const given = (name: string) => typeof query[name] === 'string';
  if (!given('category')) return undefined;
  if (given('campaign_id') || given('campaign'))
    return 'campaign and category cannot be combined: no index serves both (filter by one of them)';
  const orderField = (query.order as { field?: unknown } | undefined)?.field;
  if (typeof orderField === 'string' && orderField !== 'created_at')
    return 'category lists are ordered by created_at only (newest first by default, or order=created_at): an index for each order would slow the generation of every categorized campaign';
  return undefined;
}

/**
 * GET /v1/vouchers: newest first unless ordered; `campaign_id` or `campaign` (id or name),
 * `category` (id or name), `customer` (holder id or source_id) and created/updated ranges.
 */
const listSchema = querySchema(vouchersListParams).test(objectRule('indexed-filters', unservedFilterProblem));
export type VouchersListQuery = QueryOf<typeof vouchersListParams> & {
  /** The filters no index serves, for the bounded window (voucher-list.filters.ts). */
  residual?: Filter;
};

/**
 * The list's query, checked: the `filters` deep object becomes the plain parameters it means
 * (voucher-list.filters.ts). Any other key with brackets that the list does not know
 * (`created_at[since]`) is refused rather than ignored: a client that filters must never get
 * the unfiltered list as if it were the filtered one.
 */
export function parseVouchersListQuery(query: Record<string, unknown>): VouchersListQuery {
  const { plain, residual } = withFiltersAsParams(query);
  const unknown = Object.keys(plain).filter(
    (key) => (key.includes('[') || key === 'filters') && !VOUCHER_LIST_PARAMS.includes(key),
  );
  if (unknown.length > 0) throw invalidQueryParams(`Unknown query parameter(s): ${unknown.join(', ')}`);
  const params = parse(listSchema, plain, 'query');
  return residual === undefined ? params : { ...params, residual };
}
