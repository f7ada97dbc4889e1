import type { RewardType } from '../../lib/enums.js';
import type { RewardRow } from './rewards.repository.js';
import type { RewardAssignmentRow } from './assignments.repository.js';

/** The parameters of each reward type, as the reference answers them (RewardType). */
export type RewardParameters =
  | { campaign: { id: string; balance?: number; type: string } }
  | { product: { id: string; sku_id: string | null } }
  | { coin: { exchange_ratio: number; points_ratio: number } };

/** A reward (the reference's Reward object), field order as the reference's. */
export interface RewardView {
  id: string;
  name: string;
  type: RewardType;
  parameters: RewardParameters;
  stock: number | null;
  /** Null until a redemption of it stands (the reference's examples: null on a reward never redeemed). */
  redeemed: number | null;
  attributes: { image_url?: string; description?: string };
  created_at: string;
  updated_at: string | null;
  /** Null when none was given, as the reference's recorded rewards show it. */
  metadata: Record<string, unknown> | null;
  object: 'reward';
}

export const presentReward = (row: RewardRow): RewardView => ({
  id: row.id,
  name: row.name,
  type: row.type,
  parameters: JSON.parse(row.parameters) as RewardParameters,
  stock: row.stock,
  redeemed: row.redeemed || null,
  attributes: JSON.parse(row.attributes) as RewardView['attributes'],
  created_at: row.created_at,
  updated_at: row.updated_at,
  metadata: JSON.parse(row.metadata) as Record<string, unknown> | null,
  object: 'reward',
});

/** A reward assignment (the reference's RewardAssignment object). A COIN reward's assignment has no points cost: no `parameters`. */
export interface RewardAssignmentView {
  id: string;
  reward_id: string;
  related_object_id: string;
  related_object_type: 'campaign';
  parameters?: { loyalty: { points: number; auto_redeem?: boolean } };
  created_at: string;
  updated_at: string | null;
  object: 'reward_assignment';
}

export function presentRewardAssignment(row: RewardAssignmentRow): RewardAssignmentView {
  const loyalty =
    row.points === null
      ? undefined
      : { points: row.points, ...(row.auto_redeem === null ? {} : { auto_redeem: row.auto_redeem === 1 }) };
  return {
    id: row.id,
    reward_id: row.reward_id,
    related_object_id: row.campaign_id,
    related_object_type: 'campaign',
    ...(loyalty ? { parameters: { loyalty } } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    object: 'reward_assignment',
  };
}
