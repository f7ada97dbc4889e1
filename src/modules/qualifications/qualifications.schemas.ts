import { array, mixed, number, object, string, type InferType } from 'yup';
import { parseIsoDate } from '../../lib/dates.js';
import { jsonObjectField, nullableText, shortText } from '../../lib/fields.js';
import { CAMPAIGN_TYPES } from '../../lib/enums.js';
import { createCustomerSchema } from '../customers/index.js';
import { createOrderSchema } from '../orders/index.js';

/**
 * The body of POST /v1/qualifications and /client/v1/qualifications
 * (QualificationsCheckEligibilityRequestBody): the customer and the order as POST /v1/customers
 * and POST /v1/orders take them, a scenario, and options (limit 1..50, default 5; a
 * starting_after date-time cursor; filters; expand; sorting_rule).
 */
const PATH = '${path}';
export const SCENARIOS = [
  'ALL',
  'CUSTOMER_WALLET',
  'AUDIENCE_ONLY',
  'PRODUCTS',
  'PRODUCTS_DISCOUNT',
  'PROMOTION_STACKS',
  'PRODUCTS_BY_CUSTOMER',
  'PRODUCTS_DISCOUNT_BY_CUSTOMER',
] as const;
export const SUPPORTED_SCENARIOS = ['ALL', 'CUSTOMER_WALLET', 'AUDIENCE_ONLY', 'PROMOTION_STACKS'] as const;
export type SupportedScenario = (typeof SUPPORTED_SCENARIOS)[number];
export const MAX_LIMIT = 50;
export const DEFAULT_LIMIT = 5;
const EXPAND = ['redeemable', 'category', 'validation_rules'] as const;
const SORTING = ['DEFAULT', 'BEST_DEAL', 'LEAST_DEAL'] as const;
const RESOURCE_TYPES = ['campaign', 'voucher', 'promotion_tier'] as const;
const HOLDER_ROLES = ['OWNER', 'REFERRER', 'REFEREE'] as const;

const values = (allowed?: readonly string[]) => {
  const item = allowed
    ? string()
        .typeError(`${PATH} must be a string`)
        .oneOf(allowed, `${PATH} must be one of: ${allowed.join(', ')}`)
    : shortText(PATH);
  return array(item.required())
    .typeError(`${PATH} must be an array`)
    .max(100, `${PATH} must hold at most 100 values`)
    .nullable()
    .optional();
};

/** A field's filter: {conditions: {$is|$is_not|$in|$not_in: [...], $has_value, $is_unknown}}. */
const fieldFilter = (allowed?: readonly string[]) =>
  object({
    conditions: object({
      $is: values(allowed),
      $is_not: values(allowed),
      $in: values(allowed),
      $not_in: values(allowed),
      $has_value: mixed().optional(),
      $is_unknown: mixed().optional(),
    })
      .typeError(`${PATH} must be an object`)
      .optional()
      .default(undefined),
  })
    .typeError(`${PATH} must be an object`)
    .nullable()
    .optional()
    .default(undefined);

export const FILTER_FIELDS = [
  'category_id',
  'campaign_id',
  'campaign_type',
  'resource_id',
  'resource_type',
  'voucher_type',
  'code',
  'holder_role',
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

const filtersSchema = object({
  junction: string()
    .typeError('options.filters.junction must be a string')
    .oneOf(['and', 'or'], 'options.filters.junction must be one of: and, or')
    .nullable()
    .optional(),
  category_id: fieldFilter(),
  campaign_id: fieldFilter(),
  campaign_type: fieldFilter(CAMPAIGN_TYPES),
  resource_id: fieldFilter(),
  resource_type: fieldFilter(RESOURCE_TYPES),
  voucher_type: fieldFilter(),
  code: fieldFilter(),
  holder_role: fieldFilter(HOLDER_ROLES),
})
  .typeError('options.filters must be an object')
  .nullable()
  .optional()
  .default(undefined);

const optionsSchema = object({
  limit: number()
    .typeError('options.limit must be an integer')
    .test(
      'limit',
      `options.limit must be an integer from 1 to ${MAX_LIMIT}`,
      (v) => v === undefined || v === null || (Number.isSafeInteger(v) && v >= 1 && v <= MAX_LIMIT),
    )
    .nullable()
    .optional(),
  starting_after: string()
    .typeError('options.starting_after must be a date-time string')
    .test(
      'date',
      'options.starting_after must be an ISO 8601 date-time',
      (v) => v === undefined || v === null || parseIsoDate(v) !== null,
    )
    .nullable()
    .optional(),
  filters: filtersSchema,
  expand: array(
    string()
      .typeError(`${PATH} must be a string`)
      .oneOf(EXPAND, `${PATH} must be one of: ${EXPAND.join(', ')}`)
      .required(),
  )
    .typeError('options.expand must be an array')
    .nullable()
    .optional(),
  sorting_rule: string()
    .typeError('options.sorting_rule must be a string')
    .oneOf(SORTING, `options.sorting_rule must be one of: ${SORTING.join(', ')}`)
    .nullable()
    .optional(),
})
  .typeError('options must be an object')
  .nullable()
  .optional()
  .default(undefined);

const NOT_AN_OBJECT = 'The body must be a JSON object';

export const qualificationBodySchema = object({
  customer: createCustomerSchema
    .clone()
    .typeError('customer must be an object')
    .nullable()
    .optional()
    .default(undefined),
  order: createOrderSchema.clone().typeError('order must be an object').nullable().optional().default(undefined),
  tracking_id: nullableText('tracking_id').optional(),
  scenario: string()
    .typeError('scenario must be a string')
    .oneOf(SCENARIOS, `scenario must be one of: ${SCENARIOS.join(', ')}`)
    .test(
      'supported-scenario',
      ({ value }) => `scenario ${value} is not supported; supported scenarios: ${SUPPORTED_SCENARIOS.join(', ')}`,
      (v) => v == null || (SUPPORTED_SCENARIOS as readonly string[]).includes(v),
    )
    .nullable()
    .optional(),
  options: optionsSchema,
  session: object({
    type: string()
      .typeError('session.type must be a string')
      .oneOf(['LOCK'], 'session.type must be LOCK')
      .nullable()
      .optional(),
  })
    .typeError('session must be an object')
    .nullable()
    .optional()
    .default(undefined),
  metadata: jsonObjectField('metadata').nullable().optional(),
})
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT);

export type QualificationBody = InferType<typeof qualificationBodySchema>;
export type QualificationFilters = NonNullable<NonNullable<QualificationBody['options']>['filters']>;
