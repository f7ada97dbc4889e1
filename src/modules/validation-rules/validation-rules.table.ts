import type { Generated } from 'kysely';
import type { RuleObjectType, ValidationRuleType } from '../../lib/enums.js';

export interface ValidationRuleTable {
  seq: Generated<number>;
  id: string;
  name: string;
  /** JSON: the numbered conditions and logic, as answered. */
  rules: string;
  /** JSON {excluded, included, included_all}, as answered. */
  applicable_to: string;
  error_message: string | null;
  type: ValidationRuleType;
  context_type: string;
  created_at: string;
  updated_at: string | null;
}

export interface ValidationRuleAssignmentTable {
  seq: Generated<number>;
  id: string;
  rule_id: string;
  related_object_type: RuleObjectType;
  related_object_id: string;
  created_at: string;
}

export interface ValidationRulesTables {
  validation_rules: ValidationRuleTable;
  validation_rules_assignments: ValidationRuleAssignmentTable;
}
