import type { Generated } from 'kysely';
import type { CampaignType } from '../../lib/enums.js';

export type { CampaignType };
export type GenerationStatus = 'DONE' | 'IN_PROGRESS' | 'FAILED' | 'DRAFT' | 'MODIFYING';

export interface CampaignTable {
  seq: Generated<number>;
  id: string;
  name: string;
  description: string | null;
  campaign_type: CampaignType;
  type: 'AUTO_UPDATE' | 'STATIC' | 'STANDALONE';
  /** JSON voucher template; null for PROMOTION. */
  voucher: string | null;
  referral_program: string | null;
  auto_join: number;
  join_once: number;
  use_voucher_metadata_schema: number;
  start_date: string | null;
  expiration_date: string | null;
  validity_timeframe: string | null;
  validity_day_of_week: string | null;
  validity_hours: string | null;
  activity_duration_after_publishing: string | null;
  vouchers_count: number;
  active: number;
  metadata: string;
  category_id: string | null;
  creation_status: GenerationStatus;
  vouchers_generation_status: GenerationStatus;
  protected: number;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
  /** JSON loyalty_tiers_expiration of a LOYALTY_PROGRAM (sql/0010), as sent; null when none. */
  loyalty_tiers_expiration: string | null;
}

export interface PromotionTierTable {
  seq: Generated<number>;
  id: string;
  campaign_id: string;
  name: string;
  banner: string | null;
  /** JSON {discount}. */
  action: string;
  metadata: string;
  hierarchy: number;
  active: number;
  start_date: string | null;
  expiration_date: string | null;
  validity_timeframe: string | null;
  validity_day_of_week: string | null;
  validity_hours: string | null;
  category_id: string | null;
  created_at: string;
  updated_at: string | null;
}

/** A promotion stack (sql/0017): its tiers are rows of promotion_stack_tiers. */
export interface PromotionStackTable {
  seq: Generated<number>;
  id: string;
  campaign_id: string;
  name: string;
  hierarchy_mode: 'MANUAL';
  category_id: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface PromotionStackTierTable {
  stack_id: string;
  position: number;
  tier_id: string;
}

export interface CampaignsTables {
  campaigns: CampaignTable;
  promotion_tiers: PromotionTierTable;
  promotion_stacks: PromotionStackTable;
  promotion_stack_tiers: PromotionStackTierTable;
}
