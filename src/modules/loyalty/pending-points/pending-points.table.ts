import type { Generated } from 'kysely';

export const PENDING_POINTS_STATUSES = ['PENDING', 'ACTIVATED', 'CANCELED'] as const;
export type PendingPointsStatus = (typeof PENDING_POINTS_STATUSES)[number];

/** sql/0012_earning_rules.sql: points an earning rule gave that wait before they count. */
export interface PendingPointsTable {
  seq: Generated<number>;
  id: string;
  voucher_id: string;
  campaign_id: string;
  customer_id: string;
  order_id: string;
  earning_rule_id: string;
  points: number;
  status: PendingPointsStatus;
  /** When the sweep activates it (ISO instant; answered as its date). */
  activates_at: string;
  /** JSON: the reference's LoyaltyPendingPointsDetails. */
  details: string;
  /** JSON: the earning rule's expiration_rules (null: the program's), applied when the points activate. */
  expiration_rules: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface PendingPointsTables {
  loyalty_pending_points: PendingPointsTable;
}
