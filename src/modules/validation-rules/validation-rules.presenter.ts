import type { RuleAssignmentRow, RuleRow } from './validation-rules.repository.js';

type Applicable = {
  excluded: Array<Record<string, unknown>>;
  included: Array<Record<string, unknown>>;
  included_all: boolean;
};

/**
 * The rule as the reference reads it (GET /v1/validation-rules and /{id}, PUT): `updated_at`
 * only once updated, `assignments_count` only once assigned, as its recorded answers show.
 */
export function presentRule(row: RuleRow, assignmentsCount: number) {
  return {
    id: row.id,
    name: row.name,
    rules: JSON.parse(row.rules) as Record<string, unknown>,
    ...(row.error_message === null ? {} : { error: { message: row.error_message } }),
    applicable_to: JSON.parse(row.applicable_to) as Applicable | null,
    created_at: row.created_at,
    ...(row.updated_at === null ? {} : { updated_at: row.updated_at }),
    type: row.type,
    context_type: row.context_type,
    ...(assignmentsCount === 0 ? {} : { assignments_count: assignmentsCount }),
    object: 'validation_rules' as const,
  };
}

export type RuleView = ReturnType<typeof presentRule>;

/** What a create request gave, where the create answer tells given from left out. */
export interface GivenRule {
  rules: boolean;
  applicable_to: { excluded?: unknown; included?: unknown } | null | undefined;
}

/**
 * POST /v1/validation-rules answers the rule as it was given, not as a read shows it: `rules`
 * not given is `{}`, `applicable_to` (or one of its lists) not given is null, each included
 * item carries `strict: false`, and nothing is counted yet (`assignments_count: null`).
 */
export function presentCreatedRule(row: RuleRow, given: GivenRule) {
  const read = presentRule(row, 0);
  const stored = read.applicable_to as Applicable;
  const lists = given.applicable_to;
  return {
    ...read,
    rules: given.rules ? read.rules : {},
    applicable_to:
      lists == null
        ? null
        : {
            excluded: lists.excluded == null ? null : stored.excluded,
            included: lists.included == null ? null : stored.included.map((item) => ({ ...item, strict: false })),
            included_all: stored.included_all,
          },
    updated_at: null,
    assignments_count: null,
  };
}

/** An assignment as the reference answers it (ValidationRuleAssignment). */
export const presentRuleAssignment = (row: RuleAssignmentRow) => ({
  id: row.id,
  rule_id: row.rule_id,
  related_object_id: row.related_object_id,
  related_object_type: row.related_object_type,
  created_at: row.created_at,
  object: 'validation_rules_assignment' as const,
});

export type RuleAssignmentView = ReturnType<typeof presentRuleAssignment>;
