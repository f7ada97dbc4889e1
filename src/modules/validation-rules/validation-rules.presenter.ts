import type { AssignmentRow, RuleRow } from './validation-rules.repository.js';

/** The rule as the reference answers it (ValidationRule). */
export function presentRule(row: RuleRow, assignmentsCount: number) {
  return {
    id: row.id,
    name: row.name,
    rules: JSON.parse(row.rules) as Record<string, unknown>,
    ...(row.error_message === null ? {} : { error: { message: row.error_message } }),
    applicable_to: JSON.parse(row.applicable_to) as { excluded: unknown[]; included: unknown[]; included_all: boolean },
    created_at: row.created_at,
    updated_at: row.updated_at,
    type: row.type,
    context_type: row.context_type,
    assignments_count: assignmentsCount,
    object: 'validation_rules' as const,
  };
}

export type RuleView = ReturnType<typeof presentRule>;

/** An assignment as the reference answers it (ValidationRuleAssignment). */
export const presentAssignment = (row: AssignmentRow) => ({
  id: row.id,
  rule_id: row.rule_id,
  related_object_id: row.related_object_id,
  related_object_type: row.related_object_type,
  created_at: row.created_at,
  object: 'validation_rules_assignment' as const,
});

export type AssignmentView = ReturnType<typeof presentAssignment>;
