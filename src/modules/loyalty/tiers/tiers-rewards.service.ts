import type { Deps } from '../../../app/deps.js';
import { listEnvelope } from '../../../lib/pagination.js';
import { programRewards } from '../../rewards/index.js';
import { listEarningRules } from '../earning/earning-rules.service.js';
import type { EarningRulesListQuery } from '../earning/earning-rules.schemas.js';
import type { TierMapping } from '../../../engine/loyalty/points.js';
import { requireTier } from './tiers.service.js';

type Assignment = Awaited<ReturnType<typeof programRewards>>[number]['assignment'];

/** The points an assignment costs in a tier: its `rewards` mapping's custom points, or its cost times the multiplier. */
function inTier(assignment: Assignment, mapping: TierMapping | undefined): Assignment {
  const loyalty = assignment.parameters?.loyalty;
  if (!mapping || !loyalty) return assignment;
  const points = mapping.type === 'CUSTOM' ? mapping.points : Math.round(loyalty.points * mapping.multiplier);
  return { ...assignment, parameters: { loyalty: { ...loyalty, points } } };
}

/**
 * GET /v1/loyalties/{campaignId}/tiers/{tierId}/rewards (the reference's "List Loyalty Tier Rewards"): the assignments the
 * tier's `rewards` mapping names, at the tier's cost; a tier without one offers every
 * assignment of its program. The reference gives this list no pagination: all of them, with `total`.
 */
export async function listTierRewards(deps: Pick<Deps, 'db'>, programKey: string, tierId: string) {
  const tier = await requireTier(deps.db, programKey, tierId);
  const mapping = JSON.parse(tier.rewards) as Record<string, TierMapping>;
  const named = Object.keys(mapping);
  const items = await programRewards(deps.db, tier.campaign_id, named.length > 0 ? named : undefined);
  const data = items.map(({ reward, assignment }) => ({
    reward,
    assignment: inTier(assignment, mapping[assignment.id]),
    object: 'loyalty_tier_reward' as const,
  }));
  return listEnvelope('data', data, { total: data.length });
}

/**
 * list-loyalty-tier-earning-rules (GET /v1/loyalties/{campaignId}/tiers/{tierId}/earning-rules;
 * the SDK's `loyalties.listLoyaltyTierEarningRules`): the earning rules of the tier's program,
 * as list-earning-rules answers them with the same `limit`, `page` and `order`. A rule's points
 * for the tier's members follow the tier's `earning_rules` mapping, shown on the tier.
 */
export async function listTierEarningRules(
  deps: Pick<Deps, 'db'>,
  programKey: string,
  tierId: string,
  query: EarningRulesListQuery,
) {
  const tier = await requireTier(deps.db, programKey, tierId);
  return listEarningRules(deps, tier.campaign_id, query);
}
