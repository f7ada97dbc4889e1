import { array, mixed, number, object, string, type InferType } from 'yup';
import {
  STACKING_APPLICATION_MODES,
  STACKING_CALCULATION_MODES,
  STACKING_GROUPED_SORTING_RULES,
  STACKING_NO_EFFECT_RULES,
  STACKING_PRODUCTS_APPLICATION_MODES,
  STACKING_ROLLBACK_ORDER_MODES,
  STACKING_SORTING_RULES,
} from '../../lib/enums.js';
import { idField, isPlainObject } from '../../lib/fields.js';
import { LIMITS } from '../../lib/limits.js';

/**
 * A change of the project's stacking rules (the reference's StackingRules and
 * ManagementProjectsStackingRules{Create,Update}RequestBody): every field optional, those
 * given replace the stored (or default) value, each within the reference's range. Ranges that
 * tie two fields together and category ids are checked on the merged rules
 * (stacking-rules.service.ts). Unknown fields are dropped. discount_calculation_mode and its
 * category lists are stored and answered but not applied (engine/stacking/types.ts).
 */
const PATH = '${path}';

/** The most category ids one list may hold. */
export const MAX_RULE_CATEGORIES = 100;

const whole = (min: number, max: number) =>
  number()
    .typeError(`${PATH} must be an integer`)
    .integer(`${PATH} must be an integer`)
    .min(min, `${PATH} must be from ${min} to ${max}`)
    .max(max, `${PATH} must be from ${min} to ${max}`);

const categories = () =>
  array(idField(PATH).required())
    .typeError(`${PATH} must be an array of category ids`)
    .max(MAX_RULE_CATEGORIES, `${PATH} must hold at most ${MAX_RULE_CATEGORIES} category ids`);

/** `{<category id>: 1..10}`: per-category limits (the reference's applicable_redeemables_category_limits). */
const categoryLimits = () =>
  mixed<Record<string, number>>((v): v is Record<string, number> => isPlainObject(v))
    .typeError(`${PATH} must be an object`)
    .test('category-limits', '', function check(value) {
      if (value == null) return true;
      const entries = Object.entries(value);
      if (entries.length > MAX_RULE_CATEGORIES)
        return this.createError({ message: `${this.path} must hold at most ${MAX_RULE_CATEGORIES} categories` });
      for (const [key, limit] of entries) {
        if (key.length === 0 || key.length > LIMITS.shortText)
          return this.createError({
            message: `${this.path} keys must be category ids of 1 to ${LIMITS.shortText} characters`,
          });
        if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 10)
          return this.createError({ message: `${this.path}.${key} must be an integer from 1 to 10` });
      }
      return true;
    });

const choice = <T extends string>(values: readonly T[]) =>
  string()
    .typeError(`${PATH} must be a string`)
    .oneOf(values, `${PATH} must be one of: ${values.join(', ')}`);

export const stackingRulesChangeSchema = object({
  redeemables_limit: whole(1, 30),
  applicable_redeemables_limit: whole(1, 30),
  applicable_redeemables_per_category_limit: whole(1, 30),
  applicable_redeemables_category_limits: categoryLimits(),
  applicable_exclusive_redeemables_limit: whole(1, 5),
  applicable_exclusive_redeemables_per_category_limit: whole(1, 5),
  discount_calculation_mode: choice(STACKING_CALCULATION_MODES),
  initial_amount_mode_categories: categories(),
  discounted_amount_mode_categories: categories(),
  exclusive_categories: categories(),
  joint_categories: categories(),
  redeemables_application_mode: choice(STACKING_APPLICATION_MODES),
  redeemables_sorting_rule: choice(STACKING_SORTING_RULES),
  redeemables_products_application_mode: choice(STACKING_PRODUCTS_APPLICATION_MODES),
  redeemables_no_effect_rule: choice(STACKING_NO_EFFECT_RULES),
  no_effect_skip_categories: categories(),
  no_effect_redeem_anyway_categories: categories(),
  redeemables_rollback_order_mode: choice(STACKING_ROLLBACK_ORDER_MODES),
  grouped_redeemables_sorting_rule: choice(STACKING_GROUPED_SORTING_RULES),
})
  .typeError('The body must be a JSON object')
  .nonNullable('The body must be a JSON object');

export type StackingRulesChange = InferType<typeof stackingRulesChangeSchema>;
