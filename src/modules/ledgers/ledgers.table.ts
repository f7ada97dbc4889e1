import type { Generated } from 'kysely';
import type { LedgerEntryType, LedgerOperationType } from './ledger.types.js';

/** sql/0009_ledgers.sql: one row per change of a card's points or a gift card's credits. */
export interface LedgerEntryTable {
  seq: Generated<number>;
  id: string;
  voucher_id: string;
  campaign_id: string | null;
  customer_id: string | null;
  type: LedgerEntryType;
  delta: number;
  balance: number;
  total: number;
  reason: string | null;
  source_id: string | null;
  source: string | null;
  operation_type: LedgerOperationType;
  order_id: string | null;
  redemption_id: string | null;
  rollback_id: string | null;
  reward_id: string | null;
  earning_rule_id: string | null;
  pending_points_id: string | null;
  related_transaction_id: string | null;
  bucket_id: string | null;
  /** JSON object of further details as answered, or NULL. */
  details: string | null;
  created_at: string;
}

/** A card's remaining points of one expiry date ('9999-12-31': never). */
export interface PointsBucketTable {
  seq: Generated<number>;
  id: string;
  voucher_id: string;
  campaign_id: string | null;
  expires_on: string;
  total_points: number;
  expired_points: Generated<number>;
  status: 'ACTIVE' | 'EXPIRED';
  created_at: string;
  updated_at: string | null;
}

export interface PointsDrawTable {
  entry_id: string;
  bucket_id: string;
  points: number;
}

export interface LedgersTables {
  ledger_entries: LedgerEntryTable;
  points_buckets: PointsBucketTable;
  points_draws: PointsDrawTable;
}
