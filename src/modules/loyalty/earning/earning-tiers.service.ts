import { pointsEarned, type EarningLoyalty } from '../../../engine/loyalty/points.js';
import { isActiveAt, presentValidity } from '../../../engine/validity/index.js';
import type { Tx } from '../../../db/engine.js';
import { creditRulePoints, tierMappingsOf, type EarnDeps } from './earning.service.js';
import { listActiveRulesForEvent } from './earning-rules.repository.js';
import type { TierChanged } from '../tiers/tiers-changed.seam.js';

/**
 * Earning on a member's tier move (the tiers' seam, inside the points change that moved it):
 * every active, currently valid rule of the program for `customer.loyalty.tier.<move>` whose
 * `loyalty_tier` is the tier joined, upgraded to, downgraded to or prolonged (for `left`: the
 * tier left) credits its FIXED points (with the member's tier mapping) at once. What it
 * credits may move the tier again; the tiers end that chain (a tier is joined once per move).
 */
export async function earnOnTierChange(deps: EarnDeps, trx: Tx, change: TierChanged): Promise<void> {
  const tierId = change.move === 'left' ? change.previousTierId : change.tierId;
  if (tierId === null) return;
  const rules = (
    await listActiveRulesForEvent(trx, [change.campaignId], `customer.loyalty.tier.${change.move}`)
  ).filter((rule) => rule.loyalty_tier_id === tierId && isActiveAt(presentValidity(rule), change.at));
  if (rules.length === 0) return;
  const mappings = await tierMappingsOf(trx, change.voucherId);
  for (const rule of rules) {
    const points = pointsEarned(JSON.parse(rule.loyalty) as EarningLoyalty, { tier: mappings[rule.id] ?? null });
    if (points > 0)
      await creditRulePoints(deps, trx, {
        voucherId: change.voucherId,
        rule,
        points,
        actor: change.actor,
        at: change.at,
      });
  }
}
