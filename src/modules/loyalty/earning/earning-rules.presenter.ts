import { presentValidity } from '../../../engine/validity/index.js';
import type { EarningLoyalty } from '../../../engine/loyalty/points.js';
import type { EarningRuleRow } from './earning-rules.repository.js';

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/**
 * The validity rules that are set: the reference's earning rules leave every unset one out,
 * dates included (GET /v1/loyalties/{campaignId}/earning-rules shows dates only when set).
 */
function validityOf(row: EarningRuleRow) {
  const v = presentValidity(row);
  return {
    ...(v.start_date ? { start_date: v.start_date } : {}),
    ...(v.expiration_date ? { expiration_date: v.expiration_date } : {}),
    ...(v.validity_timeframe ? { validity_timeframe: v.validity_timeframe } : {}),
    ...(v.validity_day_of_week ? { validity_day_of_week: v.validity_day_of_week } : {}),
    ...(v.validity_hours ? { validity_hours: v.validity_hours } : {}),
  };
}

/**
 * The reference's EarningRule, shaped as its example answers: the event's own target
 * (`loyalty_tier`, `segment`, `custom_event`), `pending_points` and `expiration_rules` only
 * when set, `validation_rule_id` null when none; `source` names the program.
 */
export function presentEarningRule(row: EarningRuleRow) {
  const segment = parse<{ id: string }>(row.segment);
  const customEvent = parse<{ schema_id: string }>(row.custom_event);
  const expirationRules = parse<Record<string, unknown>>(row.expiration_rules);
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    // Always there, null when none, as every recorded earning rule answers it.
    validation_rule_id: row.validation_rule_id,
    loyalty: JSON.parse(row.loyalty) as EarningLoyalty,
    event: row.event,
    ...(row.loyalty_tier_id !== null ? { loyalty_tier: { id: row.loyalty_tier_id } } : {}),
    ...(segment ? { segment } : {}),
    ...(customEvent ? { custom_event: customEvent } : {}),
    source: {
      ...(row.banner !== null ? { banner: row.banner } : {}),
      object_id: row.campaign_id,
      object_type: 'campaign' as const,
    },
    active: row.active === 1,
    ...(row.pending_days !== null
      ? { pending_points: { period_type: 'DAY' as const, period_value: row.pending_days } }
      : {}),
    ...(expirationRules ? { expiration_rules: expirationRules } : {}),
    ...validityOf(row),
    object: 'earning_rule' as const,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  };
}

export type EarningRuleView = ReturnType<typeof presentEarningRule>;
