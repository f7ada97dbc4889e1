/**
 * The project's stacking rules (voucherify-facts 2.12) and what the stacking step decides for
 * one request's redeemables. Shared by the settings (modules/stacking-rules) that store them and
 * the redemption pipeline (modules/redemptions) that applies them; the selection itself is the
 * pure function of ./select.ts.
 */

export interface StackingRules {
  /** Redeemables one request may name (1..30). */
  redeemables_limit: number;
  /** Applicable redeemables one request applies (1..30); the rest are SKIPPED. */
  applicable_redeemables_limit: number;
  applicable_redeemables_per_category_limit: number;
  /** Per-category overrides of applicable_redeemables_per_category_limit: category id -> 1..10. */
  applicable_redeemables_category_limits?: Record<string, number>;
  applicable_exclusive_redeemables_limit: number;
  applicable_exclusive_redeemables_per_category_limit: number;
  /**
   * Stored and answered, not applied: every discount is calculated on what the discounts before
   * it left (DISCOUNTED_AMOUNT), whatever this mode and the two category lists say.
   */
  discount_calculation_mode: 'INITIAL_AMOUNT' | 'DISCOUNTED_AMOUNT';
  initial_amount_mode_categories: string[];
  discounted_amount_mode_categories: string[];
  exclusive_categories: string[];
  joint_categories: string[];
  /** ALL: one inapplicable redeemable fails the request; PARTIAL: the others still apply. */
  redeemables_application_mode: 'ALL' | 'PARTIAL';
  redeemables_sorting_rule: 'CATEGORY_HIERARCHY' | 'REQUESTED_ORDER';
  redeemables_products_application_mode: 'STACK' | 'ONCE';
  redeemables_no_effect_rule: 'REDEEM_ANYWAY' | 'SKIP';
  no_effect_skip_categories: string[];
  no_effect_redeem_anyway_categories: string[];
  redeemables_rollback_order_mode: 'WITH_ORDER' | 'WITHOUT_ORDER';
  /** Joint redeemables follow the exclusive ones (select.ts step 3): the one order promo knows. */
  grouped_redeemables_sorting_rule: 'JOINT_ALWAYS_LAST';
}

/** The reference's defaults: what a project that never set its rules gets. */
export const DEFAULT_STACKING_RULES: Readonly<StackingRules> = Object.freeze({
  redeemables_limit: 30,
  applicable_redeemables_limit: 5,
  applicable_redeemables_per_category_limit: 1,
  applicable_redeemables_category_limits: {},
  applicable_exclusive_redeemables_limit: 1,
  applicable_exclusive_redeemables_per_category_limit: 1,
  discount_calculation_mode: 'DISCOUNTED_AMOUNT',
  initial_amount_mode_categories: [],
  discounted_amount_mode_categories: [],
  exclusive_categories: [],
  joint_categories: [],
  redeemables_application_mode: 'ALL',
  redeemables_sorting_rule: 'REQUESTED_ORDER',
  redeemables_products_application_mode: 'STACK',
  redeemables_no_effect_rule: 'REDEEM_ANYWAY',
  no_effect_skip_categories: [],
  no_effect_redeem_anyway_categories: [],
  redeemables_rollback_order_mode: 'WITH_ORDER',
  grouped_redeemables_sorting_rule: 'JOINT_ALWAYS_LAST',
});

export const SKIP_KEYS = [
  'applicable_redeemables_limit_exceeded',
  'applicable_redeemables_per_category_limit_exceeded',
  'applicable_exclusive_redeemables_limit_exceeded',
  'applicable_exclusive_redeemables_per_category_limit_exceeded',
  'exclusion_rules_not_met',
  'preceding_validation_failed',
  /** redeemables_no_effect_rule / no_effect_*_categories: applied, but changed nothing (noEffectSkips). */
  'no_effect',
] as const;
export type SkipKey = (typeof SKIP_KEYS)[number];

/** A redeemable that passed validation, as the stacking step sees it. */
export interface StackCandidate {
  /** Its position in the request's `redeemables`. */
  index: number;
  /** Its category (a voucher's, or its campaign's; a tier's): id and hierarchy, or null. */
  category: { id: string; hierarchy: number } | null;
}

export interface StackSelection<C extends StackCandidate = StackCandidate> {
  /** Applied, in the order they apply. */
  applied: C[];
  skipped: { candidate: C; key: SkipKey }[];
}
