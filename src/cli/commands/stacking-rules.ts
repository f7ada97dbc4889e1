import type { StackingRules } from '../../engine/stacking/index.js';
import {
  STACKING_APPLICATION_MODES,
  STACKING_NO_EFFECT_RULES,
  STACKING_PRODUCTS_APPLICATION_MODES,
  STACKING_ROLLBACK_ORDER_MODES,
  STACKING_SORTING_RULES,
} from '../../lib/enums.js';
import { UsageError } from '../../lib/errors.js';
import { flagsSchema, integer, oneOf, text } from '../../lib/query-params.js';
import { parse } from '../../lib/validate.js';
import {
  type StackingRulesChange,
  changeStackingRules,
  showStackingRules,
} from '../../modules/stacking-rules/index.js';
import { printJson, runWithDeps, type CommonOptions } from '../run.js';

/** Each flag of `set` and the rules field it changes; integer bounds are the reference's. */
const setFlags = flagsSchema({
  redeemablesLimit: integer(1, 30),
  applicableLimit: integer(1, 30),
  applicablePerCategoryLimit: integer(1, 30),
  exclusiveLimit: integer(1, 5),
  exclusivePerCategoryLimit: integer(1, 5),
  exclusiveCategories: text(),
  jointCategories: text(),
  mode: oneOf(STACKING_APPLICATION_MODES),
  sorting: oneOf(STACKING_SORTING_RULES),
  productsMode: oneOf(STACKING_PRODUCTS_APPLICATION_MODES),
  ifNoEffect: oneOf(STACKING_NO_EFFECT_RULES),
  skipIfNoEffect: text(),
  redeemIfNoEffect: text(),
  rollbackMode: oneOf(STACKING_ROLLBACK_ORDER_MODES),
});

/** `a,b` as a list; an empty value clears it. */
const list = (raw: string | undefined): string[] | undefined =>
  raw === undefined
    ? undefined
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

function changeOf(options: object): StackingRulesChange {
  const f = parse(setFlags, options, 'flags');
  const change: StackingRulesChange = {
    redeemables_limit: f.redeemablesLimit,
    applicable_redeemables_limit: f.applicableLimit,
    applicable_redeemables_per_category_limit: f.applicablePerCategoryLimit,
    applicable_exclusive_redeemables_limit: f.exclusiveLimit,
    applicable_exclusive_redeemables_per_category_limit: f.exclusivePerCategoryLimit,
    exclusive_categories: list(f.exclusiveCategories),
    joint_categories: list(f.jointCategories),
    redeemables_application_mode: f.mode,
    redeemables_sorting_rule: f.sorting,
    redeemables_products_application_mode: f.productsMode,
    redeemables_no_effect_rule: f.ifNoEffect,
    no_effect_skip_categories: list(f.skipIfNoEffect),
    no_effect_redeem_anyway_categories: list(f.redeemIfNoEffect),
    redeemables_rollback_order_mode: f.rollbackMode,
  };
  if (Object.values(change).every((v) => v === undefined))
    throw new UsageError('set needs at least one rule to change (see promo stacking-rules set --help)');
  return change;
}

/** The rules as `field: value` lines (lists comma-separated, `-` when empty; the category limits as JSON). */
function print(rules: StackingRules): void {
  const value = (v: unknown) =>
    Array.isArray(v) ? (v.length === 0 ? '-' : v.join(',')) : typeof v === 'object' ? JSON.stringify(v) : String(v);
  process.stdout.write(
    `${Object.entries(rules)
      .map(([k, v]) => `${k}: ${value(v)}`)
      .join('\n')}\n`,
  );
}

/** `promo stacking-rules show`: the project's rules, as GET /v1/stacking-rules answers them. */
export const showStackingRulesCommand = (options: CommonOptions) =>
  runWithDeps(options, async (deps) => {
    const rules = await showStackingRules(deps);
    if (options.json) return printJson(rules);
    print(rules);
  });

/** `promo stacking-rules set --applicable-limit 3 --mode PARTIAL ...`: as PUT /v1/stacking-rules; prints the whole rules. */
export const setStackingRulesCommand = (options: CommonOptions & Record<string, unknown>) =>
  runWithDeps(options, async (deps) => {
    const rules = await changeStackingRules(deps, changeOf(options));
    if (options.json) return printJson(rules);
    print(rules);
  });
