import type { Generated } from 'kysely';
import type { ValidityColumns } from '../../../engine/validity/index.js';

/** sql/0012_earning_rules.sql: a program's earning rules. JSON blocks are kept as text. */
export interface EarningRuleTable extends ValidityColumns {
  seq: Generated<number>;
  id: string;
  campaign_id: string;
  event: string;
  /** JSON: the rule's `loyalty` block. */
  loyalty: string;
  loyalty_tier_id: string | null;
  segment: string | null;
  custom_event: string | null;
  banner: string | null;
  active: number;
  /** pending_points.period_value (period_type DAY); null: points count at once. */
  pending_days: number | null;
  expiration_rules: string | null;
  validation_rule_id: string | null;
  metadata: string;
  created_at: string;
  updated_at: string | null;
}

export interface EarningRulesTables {
  earning_rules: EarningRuleTable;
}
