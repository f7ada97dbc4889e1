import type { Generated } from 'kysely';

export interface CustomerTable {
  /** The rowid: the tie-breaker of every ordering (insertion order). */
  seq: Generated<number>;
  id: string;
  source_id: string | null;
  name: string | null;
  description: string | null;
  email: string | null;
  phone: string | null;
  /** YYYY-MM-DD. */
  birthdate: string | null;
  /** JSON object holding the address fields that were given, or null. */
  address: string | null;
  /** Generated from address.city; read-only. */
  address_city: Generated<string | null>;
  /** JSON object. */
  metadata: string;
  /** JSON object. */
  system_metadata: string;
  redemptions_total_redeemed: Generated<number>;
  redemptions_total_failed: Generated<number>;
  redemptions_total_succeeded: Generated<number>;
  redemptions_total_rolled_back: Generated<number>;
  redemptions_total_rollback_failed: Generated<number>;
  redemptions_total_rollback_succeeded: Generated<number>;
  gift_redeemed_amount: Generated<number>;
  gift_amount_to_go: Generated<number>;
  loyalty_card_redeemed_points: Generated<number>;
  loyalty_card_points_to_go: Generated<number>;
  orders_total_amount: Generated<number>;
  orders_total_count: Generated<number>;
  orders_last_order_amount: Generated<number>;
  orders_last_order_date: string | null;
  loyalty_points: Generated<number>;
  loyalty_referred_customers: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** One row, kept by triggers: the exact number of customers. */
export interface CustomerCountTable {
  id: number;
  total: number;
}

export interface CustomerLoyaltyCampaignTable {
  customer_id: string;
  campaign_id: string;
  campaign_name: string;
  points: Generated<number>;
  referred_customers: Generated<number>;
  loyalty_tier: string | null;
}

export interface CustomerReferralTable {
  seq: Generated<number>;
  customer_id: string;
  campaign_id: string;
  referrer_id: string;
  related_object_id: string;
  related_object_type: string;
  date: string;
}

export interface CustomersTables {
  customers: CustomerTable;
  customer_counts: CustomerCountTable;
  customer_loyalty_campaigns: CustomerLoyaltyCampaignTable;
  customer_referrals: CustomerReferralTable;
}
