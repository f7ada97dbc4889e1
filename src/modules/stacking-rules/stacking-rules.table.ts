/** The project's stacking rules (sql/0017): one row at most, `singleton` = 1. */
export interface StackingRulesTable {
  singleton: number;
  /** `stk_...`: the id the management API answers. */
  id: string;
  /** JSON: the whole StackingRules object (engine/stacking/types.ts), validated on write. */
  rules: string;
  created_at: string;
  updated_at: string | null;
}

export interface StackingRulesTables {
  stacking_rules: StackingRulesTable;
}
