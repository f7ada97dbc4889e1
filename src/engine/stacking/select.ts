import type { SkipKey, StackCandidate, StackingRules, StackSelection } from './types.js';

/**
 * Which of the valid redeemables apply, and in what order (voucherify-facts 2.12; docs/api.md's
 * "Promotions: tiers, stacks and stacking rules" section says what was decided where the reference is silent):
 *
 * 1. Order: REQUESTED_ORDER keeps the request's order; CATEGORY_HIERARCHY sorts by the
 *    category's hierarchy (lower first), redeemables without a category last, ties in
 *    requested order.
 * 2. Exclusive redeemables (category in `exclusive_categories`) are taken first, in that order,
 *    up to `applicable_exclusive_redeemables_limit` in all and
 *    `applicable_exclusive_redeemables_per_category_limit` per category.
 * 3. When one exclusive redeemable applies, it applies alone with the joint ones (category in
 *    `joint_categories`): every other redeemable is skipped with `exclusion_rules_not_met`,
 *    and the joint ones follow the exclusive ones (the reference's default "apply joint
 *    categories last"). Otherwise every non-exclusive redeemable is taken in order.
 * 4. Every taken redeemable counts against `applicable_redeemables_limit`; a non-exclusive one
 *    with a category also against its category's limit: `applicable_redeemables_category_limits`
 *    when it names the category, else `applicable_redeemables_per_category_limit`.
 */
export function selectStack<C extends StackCandidate>(
  candidates: readonly C[],
  rules: StackingRules,
): StackSelection<C> {
  const ordered = sortCandidates(candidates, rules);
  const exclusive = new Set(rules.exclusive_categories);
  const joint = new Set(rules.joint_categories);
  const isExclusive = (c: C) => c.category !== null && exclusive.has(c.category.id);
  const isJoint = (c: C) => c.category !== null && joint.has(c.category.id) && !isExclusive(c);
  const counter = limitCounter<C>(rules, isExclusive);

  const decided = new Map<C, SkipKey | 'applied'>();
  let exclusiveApplied = 0;
  for (const c of ordered.filter(isExclusive)) {
    const outcome =
      exclusiveApplied >= rules.applicable_exclusive_redeemables_limit
        ? 'applicable_exclusive_redeemables_limit_exceeded'
        : counter.take(c);
    if (outcome === 'applied') exclusiveApplied++;
    decided.set(c, outcome);
  }
  for (const c of ordered) {
    if (!decided.has(c))
      decided.set(c, exclusiveApplied > 0 && !isJoint(c) ? 'exclusion_rules_not_met' : counter.take(c));
  }
  // Taken exclusive ones first, so the joint ones follow them (step 3).
  const applied = exclusiveApplied > 0 ? counter.applied : ordered.filter((c) => decided.get(c) === 'applied');
  const skipped = ordered.flatMap((candidate) => {
    const key = decided.get(candidate);
    return key === undefined || key === 'applied' ? [] : [{ candidate, key }];
  });
  return { applied, skipped };
}

/** Takes redeemables under the applicable limit and the per-category limits (step 4), remembering what it took. */
function limitCounter<C extends StackCandidate>(rules: StackingRules, isExclusive: (c: C) => boolean) {
  const applied: C[] = [];
  const perCategory = new Map<string, number>();
  const take = (c: C): SkipKey | 'applied' => {
    if (applied.length >= rules.applicable_redeemables_limit) return 'applicable_redeemables_limit_exceeded';
    const id = c.category?.id;
    if (id !== undefined) {
      const limit = isExclusive(c)
        ? rules.applicable_exclusive_redeemables_per_category_limit
        : (rules.applicable_redeemables_category_limits?.[id] ?? rules.applicable_redeemables_per_category_limit);
      if ((perCategory.get(id) ?? 0) >= limit) {
        return isExclusive(c)
          ? 'applicable_exclusive_redeemables_per_category_limit_exceeded'
          : 'applicable_redeemables_per_category_limit_exceeded';
      }
      perCategory.set(id, (perCategory.get(id) ?? 0) + 1);
    }
    applied.push(c);
    return 'applied';
  };
  return { applied, take };
}

/** The order the redeemables are considered and applied in (step 1). */
export function sortCandidates<C extends StackCandidate>(
  candidates: readonly C[],
  rules: Pick<StackingRules, 'redeemables_sorting_rule'>,
): C[] {
  const inRequest = [...candidates].sort((a, b) => a.index - b.index);
  if (rules.redeemables_sorting_rule !== 'CATEGORY_HIERARCHY') return inRequest;
  const rank = (c: C) => c.category?.hierarchy ?? Number.POSITIVE_INFINITY;
  // Array.prototype.sort is stable: equal hierarchies keep the requested order.
  return inRequest.sort((a, b) => (rank(a) === rank(b) ? 0 : rank(a) < rank(b) ? -1 : 1));
}

/**
 * Of the applied redeemables, those skipped because they changed nothing (`no_effect`, the
 * reference's skip key): under `redeemables_no_effect_rule: SKIP` every one without effect,
 * except those whose category is in `no_effect_redeem_anyway_categories`; under
 * `REDEEM_ANYWAY` only those whose category is in `no_effect_skip_categories`.
 */
export function noEffectSkips<C extends StackCandidate & { no_effect: boolean }>(
  results: readonly C[],
  rules: Pick<
    StackingRules,
    'redeemables_no_effect_rule' | 'no_effect_skip_categories' | 'no_effect_redeem_anyway_categories'
  >,
): { candidate: C; key: 'no_effect' }[] {
  const skip = new Set(rules.no_effect_skip_categories);
  const redeemAnyway = new Set(rules.no_effect_redeem_anyway_categories);
  const skips = (c: C): boolean => {
    if (!c.no_effect) return false;
    const id = c.category?.id;
    if (id !== undefined && skip.has(id)) return true;
    if (id !== undefined && redeemAnyway.has(id)) return false;
    return rules.redeemables_no_effect_rule === 'SKIP';
  };
  return results.filter(skips).map((candidate) => ({ candidate, key: 'no_effect' as const }));
}
