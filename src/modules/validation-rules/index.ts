/**
 * What other modules use of validation rules: the seam the redemption pipeline calls on every
 * checkout, and the assignments vouchers, campaigns and tiers answer and create.
 */
export {
  checkValidationRules,
  readRuleAssignments,
  type ApplicableList,
  type RuleAssignments,
  type RuleSubject,
  type RulesInput,
  type RulesOutcome,
} from './rules-check.service.js';
export { assignRulesTo, assignmentsOfObjects, assignmentsList } from './assignments.service.js';
export type { RuleAssignmentView } from './validation-rules.presenter.js';
export { validationRulesField } from './validation-rules.schemas.js';
export { requireRule as requireValidationRule } from './validation-rules.service.js';
// Verbs that are one repository call, exported under the name callers use (no forwarding service).
export { deleteAssignmentsOf as removeAssignmentsOf } from './validation-rules.repository.js';
