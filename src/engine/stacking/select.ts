import type { StackCandidate, StackingRules, StackSelection } from './types.js';

/**
 * Which of the valid redeemables apply, and in what order (voucherify-facts 2.12). This first
 * version keeps the requested order and the applicable limit; categories, exclusivity and the
 * per-category limits come with the stacking-rules work.
 */
export function selectStack<C extends StackCandidate>(candidates: readonly C[], rules: StackingRules): StackSelection<C> {
  const applied = candidates.slice(0, rules.applicable_redeemables_limit);
  const skipped = candidates.slice(rules.applicable_redeemables_limit).map((candidate) => ({ candidate, key: 'applicable_redeemables_limit_exceeded' as const }));
  return { applied, skipped };
}
