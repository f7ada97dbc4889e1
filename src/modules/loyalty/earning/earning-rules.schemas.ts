import { array, boolean, number, object, string, type InferType, type ObjectShape } from 'yup';
import { CALCULATION_TYPES, ITEM_TARGET_OBJECTS } from '../../../engine/loyalty/points.js';
import { EARNING_RULE_TIER_EVENTS } from '../../../lib/enums.js';
import { idField, jsonObjectField, longText, shortText, wholeNumber } from '../../../lib/fields.js';
import { limit, order, page, querySchema, type QueryOf } from '../../../lib/query-params.js';
import { validityFields } from '../../../lib/validity-fields.js';

/**
 * Bodies of POST (an array) and PUT /v1/loyalties/{campaignId}/earning-rules, and the list's
 * query (voucherify-facts 3; the reference's LoyaltiesEarningRulesCreateRequestBody).
 */
export const EARNING_RULE_ORDER_FIELDS = ['created_at', 'updated_at'] as const;

const listParams = { limit: limit(), page: page(100), order: order(EARNING_RULE_ORDER_FIELDS) };
export const earningRulesListQuerySchema = querySchema(listParams);
export type EarningRulesListQuery = QueryOf<typeof listParams>;

/** At most this many rules in one POST. */
export const MAX_RULES_PER_REQUEST = 100;

const positive = () => wholeNumber().min(1);
const block = <T extends ObjectShape>(shape: T) => object(shape).noUnknown().nullable().optional().default(undefined);

const ratio = () => ({ every: positive().required(), points: positive().required() });
const propertyRatio = () => block({ ...ratio(), property: shortText('${path}').required().min(1) });
const itemRatio = () =>
  block({
    ...ratio(),
    object: string().oneOf(ITEM_TARGET_OBJECTS).nullable(),
    id: shortText('${path}').nullable(),
    applicable_to: array(
      object({ object: string().required().oneOf(ITEM_TARGET_OBJECTS), id: idField('${path}').required() }).noUnknown(),
    )
      .max(100)
      .nullable(),
  }).test('target', '${path}.object and ${path}.id go together', (v) => !v || !v.object === !v.id);

/** The block each calculation type reads, as a path in `loyalty`. */
export const CALCULATION_BLOCK: Record<(typeof CALCULATION_TYPES)[number], [string, string]> = {
  ORDER_AMOUNT: ['order', 'amount'],
  ORDER_TOTAL_AMOUNT: ['order', 'total_amount'],
  ORDER_METADATA: ['order', 'metadata'],
  ORDER_ITEMS_QUANTITY: ['order_items', 'quantity'],
  ORDER_ITEMS_AMOUNT: ['order_items', 'amount'],
  ORDER_ITEMS_SUBTOTAL_AMOUNT: ['order_items', 'subtotal_amount'],
  CUSTOMER_METADATA: ['customer', 'metadata'],
  CUSTOM_EVENT_METADATA: ['custom_event', 'metadata'],
};

const loyaltySchema = () =>
  object({
    type: string()
      .required()
      .oneOf(['FIXED', 'PROPORTIONAL'] as const),
    points: wholeNumber().min(0).nullable(),
    calculation_type: string().oneOf(CALCULATION_TYPES).nullable(),
    order: block({ amount: block(ratio()), total_amount: block(ratio()), metadata: propertyRatio() }),
    order_items: block({ quantity: itemRatio(), amount: itemRatio(), subtotal_amount: itemRatio() }),
    customer: block({ metadata: propertyRatio() }),
    custom_event: block({ metadata: propertyRatio() }),
  })
    .noUnknown()
    .test(
      'fixed',
      '${path}.points is required for a FIXED rule',
      (v) => v?.type !== 'FIXED' || typeof v.points === 'number',
    )
    .test(
      'proportional',
      '${path}.calculation_type is required for a PROPORTIONAL rule',
      (v) => v?.type !== 'PROPORTIONAL' || !!v.calculation_type,
    )
    .test('calculation', 'the block that calculation_type reads is required', function check(v) {
      // A calculation_type that is not one of CALCULATION_TYPES is the field's own refusal.
      if (v?.type !== 'PROPORTIONAL' || !v.calculation_type || !Object.hasOwn(CALCULATION_BLOCK, v.calculation_type))
        return true;
      const [outer, inner] = CALCULATION_BLOCK[v.calculation_type];
      const found = (v as unknown as Record<string, Record<string, unknown> | null | undefined>)[outer]?.[inner];
      return found
        ? true
        : this.createError({
            message: `${this.path}.${outer}.${inner} is required for calculation_type ${v.calculation_type}`,
          });
    });

const pendingPoints = () =>
  object({
    period_type: string()
      .oneOf(['DAY'] as const)
      .default('DAY'),
    period_value: wholeNumber().min(1).max(90).required(),
  })
    .noUnknown()
    .nullable()
    .optional()
    .default(undefined);

const expirationRules = () =>
  object({
    period_type: string()
      .required()
      .oneOf(['FIXED_DAY_OF_YEAR', 'MONTH'] as const),
    period_value: positive().nullable(),
    rounding_type: string()
      .oneOf(['END_OF_MONTH', 'END_OF_QUARTER', 'END_OF_HALF_YEAR', 'END_OF_YEAR', 'PARTICULAR_MONTH'] as const)
      .nullable(),
    rounding_value: wholeNumber().min(0).nullable(),
    fixed_month: wholeNumber().min(1).max(12).nullable(),
    fixed_day: wholeNumber().min(1).max(31).nullable(),
  })
    .noUnknown()
    .nullable()
    .optional()
    .default(undefined);

/** Fields a rule's PUT may change (the event and its target are the rule's identity). */
const changeableFields = () => ({
  loyalty: loyaltySchema().optional().default(undefined),
  source: object({ banner: longText('${path}').nullable() })
    .noUnknown()
    .optional()
    .default(undefined),
  active: boolean(),
  pending_points: pendingPoints(),
  expiration_rules: expirationRules(),
  validation_rule_id: shortText('${path}').nullable(),
  metadata: jsonObjectField('${path}'),
  ...validityFields(),
});

const EVENT_NAME = /^[A-Za-z0-9_.:-]+$/;

const ruleSchema = () =>
  object({
    event: shortText('${path}')
      .required()
      .min(1)
      .matches(EVENT_NAME, '${path} must be an event name (letters, digits, . _ : -)'),
    loyalty_tier: object({ id: idField('${path}').required() })
      .noUnknown()
      .nullable()
      .optional()
      .default(undefined),
    segment: object({ id: idField('${path}').required() })
      .noUnknown()
      .nullable()
      .optional()
      .default(undefined),
    custom_event: object({ schema_id: idField('${path}').required() })
      .noUnknown()
      .nullable()
      .optional()
      .default(undefined),
    ...changeableFields(),
    loyalty: loyaltySchema().required(),
  })
    .noUnknown()
    .test('event-target', '', function check(rule) {
      if (rule == null) return true;
      const problem = eventProblem(rule as EventFields);
      return problem ? this.createError({ message: `${this.path ? `${this.path}.` : ''}${problem}` }) : true;
    });

interface EventFields {
  event?: string;
  loyalty_tier?: unknown;
  segment?: unknown;
  custom_event?: unknown;
  loyalty?: { type?: string; calculation_type?: string | null } | null;
}

/** What an event needs besides its name (voucherify-facts 3), and the calculations it allows. */
export function eventProblem(rule: EventFields): string | undefined {
  const event = rule.event ?? '';
  const calculation = rule.loyalty?.type === 'PROPORTIONAL' ? rule.loyalty.calculation_type : undefined;
  if ((EARNING_RULE_TIER_EVENTS as readonly string[]).includes(event)) {
    if (!rule.loyalty_tier) return `loyalty_tier is required for event ${event}`;
    return calculation ? `event ${event} takes FIXED points only` : undefined;
  }
  if (event === 'customer.segment.entered') {
    if (!rule.segment) return 'segment is required for event customer.segment.entered';
    return calculation && calculation !== 'CUSTOMER_METADATA'
      ? `event ${event} takes FIXED or CUSTOMER_METADATA points only`
      : undefined;
  }
  if (event === 'order.paid')
    return calculation === 'CUSTOM_EVENT_METADATA' ? 'event order.paid cannot use CUSTOM_EVENT_METADATA' : undefined;
  if (!rule.custom_event) return `custom_event is required for the custom event ${event}`;
  return calculation && !['CUSTOM_EVENT_METADATA', 'CUSTOMER_METADATA'].includes(calculation)
    ? `a custom event takes FIXED, CUSTOM_EVENT_METADATA or CUSTOMER_METADATA points only`
    : undefined;
}

export const createEarningRulesSchema = array(ruleSchema())
  .required()
  .min(1, 'The body must hold at least one earning rule')
  .max(MAX_RULES_PER_REQUEST, `The body may hold at most ${MAX_RULES_PER_REQUEST} earning rules`)
  .typeError('The body must be a JSON array of earning rules');

export const updateEarningRuleSchema = object(changeableFields())
  .noUnknown()
  .typeError('The body must be a JSON object');

export type EarningRuleBody = InferType<ReturnType<typeof ruleSchema>>;
export type EarningRuleChanges = InferType<typeof updateEarningRuleSchema>;
