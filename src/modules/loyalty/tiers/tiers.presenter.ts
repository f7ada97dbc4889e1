import type { TierMapping } from '../../../engine/loyalty/points.js';
import type { LoyaltyTierRow } from './tiers.repository.js';

export interface TierPoints {
  from: number;
  to?: number;
}

/** When a member entered its tier and when the tier ends for it (the reference's LoyaltyTier `expiration`). */
export interface TierExpiration {
  customer_id: string;
  campaign_id: string;
  tier_id: string;
  start_date: string;
  expiration_date?: string;
  created_at: string;
  updated_at?: string;
}

/** A loyalty tier (the reference's LoyaltyTier object), field order as the reference's; `expiration` only in a member's tiers. */
export interface TierView {
  id: string;
  name: string;
  campaign_id: string;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string | null;
  earning_rules: Record<string, TierMapping>;
  rewards: Record<string, TierMapping>;
  config: { points: TierPoints };
  points: TierPoints;
  expiration?: TierExpiration;
  object: 'loyalty_tier';
}

export const tierPoints = (row: Pick<LoyaltyTierRow, 'points_from' | 'points_to'>): TierPoints =>
  row.points_to === null ? { from: row.points_from } : { from: row.points_from, to: row.points_to };

export function presentTier(row: LoyaltyTierRow, expiration?: TierExpiration): TierView {
  return {
    id: row.id,
    name: row.name,
    campaign_id: row.campaign_id,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    created_at: row.created_at,
    updated_at: row.updated_at,
    earning_rules: JSON.parse(row.earning_rules) as Record<string, TierMapping>,
    rewards: JSON.parse(row.rewards) as Record<string, TierMapping>,
    config: { points: tierPoints(row) },
    points: tierPoints(row),
    ...(expiration ? { expiration } : {}),
    object: 'loyalty_tier',
  };
}
