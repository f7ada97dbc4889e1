import type { Generated } from 'kysely';

import type {
  RedemptionChannelType,
  RedemptionObjectName,
  RedemptionRelatedType,
  RedemptionResult,
  RedemptionStatus,
  RollbackOrderMode,
} from '../../lib/enums.js';

/**
 * One row per record of the redemption list (sql/0015_redemptions.sql): parent and child
 * redemptions, failed ones, and rollback records. JSON columns are the answer's snapshots.
 */
export interface RedemptionTable {
  /** The rowid: the tie-breaker of every ordering (insertion order). */
  seq: Generated<number>;
  /** r_, rf_, rr_ or rrf_ ... */
  id: string;
  object: RedemptionObjectName;
  /** A child's parent; a rollback's rolled-back redemption. */
  parent_id: string | null;
  created_at: string;
  customer_id: string | null;
  tracking_id: string | null;
  /** JSON object or null. */
  metadata: string | null;
  amount: number | null;
  result: RedemptionResult;
  status: RedemptionStatus;
  failure_code: string | null;
  failure_message: string | null;
  reason: string | null;
  rollback_order_mode: RollbackOrderMode | null;
  related_object_type: RedemptionRelatedType;
  related_object_id: string;
  related_object_parent_id: string | null;
  voucher_id: string | null;
  voucher_code: string | null;
  campaign_id: string | null;
  campaign_name: string | null;
  promotion_tier_id: string | null;
  order_id: string | null;
  order_snapshot: string | null;
  customer_snapshot: string | null;
  voucher_snapshot: string | null;
  promotion_tier_snapshot: string | null;
  reward_snapshot: string | null;
  gift_amount: number | null;
  loyalty_points: number | null;
  channel_id: string | null;
  channel_type: RedemptionChannelType;
  session_key: string | null;
  /** JSON {rollbacks: [{id, date, rollback_order_mode}], redemptions: [{id, date}]}. */
  related_redemptions: Generated<string>;
}

export interface RedemptionsTables {
  redemptions: RedemptionTable;
}
