/**
 * Validation rules (issue 12, voucherify-facts 2.9): pure, no I/O. A rule's `rules` tree and
 * `applicable_to` are checked once (parseRules, parseApplicable); evaluateRule judges a
 * customer and an order against it; applicableItems says which items its discount may touch.
 */
export * from './types.js';
export { parseLogic, evaluateLogic } from './logic.js';
export { parseRules, messageOf, MAX_CONDITIONS, MAX_TARGETS, MAX_MESSAGE, type RulesParse } from './parse.js';
export {
  parseApplicable,
  applicableItems,
  intersectItems,
  matchingIndices,
  itemMatches,
  MAX_APPLICABLE,
} from './applicable.js';
export { evaluateRule, RULE_MESSAGES, type RuleVerdict } from './evaluate.js';
export { SUPPORTED_NAMES, ITEM_FIELD_NAMES, FILTER_NAMES } from './names.js';
