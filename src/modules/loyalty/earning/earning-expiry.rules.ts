import { programExpiryDate, type ExpirationRules } from '../../../engine/loyalty/points-expiry.js';
import type { PointsExpiration } from '../../ledgers/index.js';

/**
 * When points an earning rule gave expire, counted from `at` (the day they count: payment, or
 * activation for pending points): the rule's own expiration_rules (they supersede the
 * program's), else the program's rules, which the ledger applies.
 */
export function expirationOf(rule: { expiration_rules: string | null }, at: string): PointsExpiration {
  const rules = rule.expiration_rules === null ? null : (JSON.parse(rule.expiration_rules) as ExpirationRules);
  const date = rules ? programExpiryDate(rules, at.slice(0, 10)) : null;
  return date ? { type: 'CUSTOM_DATE', date } : { type: 'PROGRAM_RULES' };
}
