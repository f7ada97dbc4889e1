import type { PendingPointsRow } from './pending-points.repository.js';

/** The reference's LoyaltyPendingPoints: `activates_at` as a date, `details` as stored. */
export const presentPendingPoints = (row: PendingPointsRow) => ({
  id: row.id,
  voucher_id: row.voucher_id,
  campaign_id: row.campaign_id,
  customer_id: row.customer_id,
  order_id: row.order_id,
  points: row.points,
  activates_at: row.activates_at.slice(0, 10),
  details: JSON.parse(row.details) as Record<string, unknown>,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export type PendingPointsView = ReturnType<typeof presentPendingPoints>;
