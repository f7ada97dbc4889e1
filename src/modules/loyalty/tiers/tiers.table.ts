import type { Generated } from 'kysely';

export interface LoyaltyTierTable {
  seq: Generated<number>;
  id: string;
  campaign_id: string;
  name: string;
  /** Inclusive bounds; points_to null: no upper bound. */
  points_from: number;
  points_to: number | null;
  /** JSON {ern_id: mapping}. */
  earning_rules: string;
  /** JSON {rewa_id: mapping}. */
  rewards: string;
  metadata: string;
  created_at: string;
  updated_at: string | null;
}

/** The tier a loyalty card is in now. */
export interface MemberTierTable {
  voucher_id: string;
  campaign_id: string;
  customer_id: string | null;
  tier_id: string;
  start_date: string;
  expiration_date: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface TiersTables {
  loyalty_tiers: LoyaltyTierTable;
  loyalty_member_tiers: MemberTierTable;
}
