import { array, mixed, object, string, type InferType } from 'yup';
import { parseApplicable, parseRules } from '../../engine/rules/index.js';
import { RULE_OBJECT_TYPES, VALIDATION_RULE_CONTEXT_TYPES, VALIDATION_RULE_TYPES } from '../../lib/enums.js';
import { idField, isPlainObject, jsonObjectField, shortText } from '../../lib/fields.js';
import { date, limit, oneOf, order, page, querySchema, text, type QueryOf } from '../../lib/query-params.js';

/**
 * Bodies of POST and PUT /v1/validation-rules (ValidationRulesCreateRequestBody and
 * ValidationRulesUpdateRequestBody), of POST .../assignments, and the lists' queries. The
 * `rules` tree and `applicable_to` are checked by engine/rules, every problem reported at once.
 */
const NOT_AN_OBJECT = 'The body must be a JSON object';
const MESSAGE_MAX = 1024;

/** A JSON object field whose content engine/rules checks: its messages become the field's. */
const checkedObject = (label: string, check: (value: unknown) => string[]) =>
  jsonObjectField(label)
    .nullable()
    .test(`${label}-content`, '', function content(value) {
      const errors = value == null ? [] : check(value);
      return errors.length === 0 ? true : this.createError({ message: errors.join('; ') });
    });

const rulesErrors = (value: unknown): string[] => {
  const parsed = parseRules(value);
  return parsed.ok ? [] : parsed.errors;
};

const applicableErrors = (value: unknown): string[] => {
  const errors: string[] = [];
  parseApplicable(value, errors);
  return errors;
};

const errorSchema = object({ message: shortText('error.message', MESSAGE_MAX).nullable() })
  .typeError('error must be an object {"message": <text>}')
  .nullable()
  .optional()
  .default(undefined);

const ruleFields = {
  name: shortText('name').min(1, 'name must not be empty'),
  rules: checkedObject('rules', rulesErrors),
  // Accepted as the reference does; promo keeps no bundle rules (docs/api.md, Validation rules).
  bundle_rules: mixed().nullable(),
  error: errorSchema,
  applicable_to: checkedObject('applicable_to', applicableErrors),
  type: string()
    .nullable()
    .oneOf([...VALIDATION_RULE_TYPES, null], `type must be one of: ${VALIDATION_RULE_TYPES.join(', ')}`),
  context_type: string()
    .nullable()
    .oneOf(
      [...VALIDATION_RULE_CONTEXT_TYPES, null],
      "context_type must be one of the reference's context types (README)",
    ),
};

/** POST /v1/validation-rules: `name` is required. */
export const createRuleSchema = object({
  ...ruleFields,
  name: ruleFields.name.defined('name is required').nonNullable('name is required'),
})
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT);

/** PUT /v1/validation-rules/{id}: the fields given change. */
export const updateRuleSchema = object(ruleFields).typeError(NOT_AN_OBJECT).nonNullable(NOT_AN_OBJECT);

export type CreateRuleBody = InferType<typeof createRuleSchema>;
export type UpdateRuleBody = InferType<typeof updateRuleSchema>;

/**
 * POST /v1/validation-rules/{id}/assignments: `{related_object_type, related_object_id}`, or
 * the older form the official client sends (`{voucher: <code>}`, `{campaign: <id>}`,
 * `{promotion_tier: <id>}`).
 */
export const createRuleAssignmentSchema = object({
  related_object_type: string().oneOf(
    RULE_OBJECT_TYPES,
    `related_object_type must be one of: ${RULE_OBJECT_TYPES.join(', ')}`,
  ),
  related_object_id: idField('related_object_id'),
  voucher: idField('voucher'),
  campaign: idField('campaign'),
  promotion_tier: idField('promotion_tier'),
})
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT)
  .test('one-object', 'related_object_id is required (or one of voucher, campaign, promotion_tier)', (v) =>
    isPlainObject(v)
      ? [v.related_object_id, v.voucher, v.campaign, v.promotion_tier].filter((x) => x !== undefined).length === 1
      : true,
  );
export type CreateRuleAssignmentBody = InferType<typeof createRuleAssignmentSchema>;

export const RULE_ORDER_FIELDS = ['created_at', 'updated_at', 'name'] as const;
export const ASSIGNMENT_ORDER_FIELDS = ['created_at'] as const;

const rulesListParams = {
  limit: limit(),
  page: page(100),
  order: order(RULE_ORDER_FIELDS),
  start_date: date(),
  end_date: date(),
};
export const rulesListQuerySchema = querySchema(rulesListParams);
export type RulesListQuery = QueryOf<typeof rulesListParams>;

const ruleAssignmentsParams = { limit: limit(), page: page(100), order: order(ASSIGNMENT_ORDER_FIELDS) };
export const ruleAssignmentsQuerySchema = querySchema(ruleAssignmentsParams);
export type RuleAssignmentsQuery = QueryOf<typeof ruleAssignmentsParams>;

const assignmentsListParams = { ...ruleAssignmentsParams, related_object_id: text(), rule: text() };
export const assignmentsListQuerySchema = querySchema(assignmentsListParams);
export type AssignmentsListQuery = QueryOf<typeof assignmentsListParams>;

const createAssignmentParams = { force: oneOf(['true', 'false'] as const) };
export const createAssignmentQuerySchema = querySchema(createAssignmentParams);
export type CreateAssignmentQuery = QueryOf<typeof createAssignmentParams>;

/**
 * `validation_rules: [ids]` in the create bodies of vouchers and campaigns (the reference's
 * VouchersCreateRequestBody, CampaignsCreateRequestBody: at most one for a campaign).
 */
export const validationRulesField = (max: number) =>
  array(idField('${path}').required('${path} must be a validation rule id'))
    .typeError('${path} must be an array of validation rule ids')
    .max(max, `\${path} must hold at most ${max} validation rule id${max === 1 ? '' : 's'}`)
    .nullable()
    .optional()
    .default(undefined);
