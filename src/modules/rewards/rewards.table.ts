import type { Generated } from 'kysely';
import type { RewardType } from '../../lib/enums.js';

export interface RewardTable {
  seq: Generated<number>;
  id: string;
  name: string;
  type: RewardType;
  /** JSON: the type's parameters as answered. */
  parameters: string;
  /** The campaign of a CAMPAIGN reward. */
  campaign_id: string | null;
  /** Null: unlimited. */
  stock: number | null;
  /** Null until a redemption claims the first one. */
  redeemed: number | null;
  /** Units held by live session locks (sql/0020): counted by the guarded claim. */
  reserved: Generated<number>;
  /** JSON {image_url?, description?}. */
  attributes: string;
  /** JSON; the text null when none was given (rows written before 2026-11-29 hold {} then). */
  metadata: string;
  created_at: string;
  updated_at: string | null;
}

export interface RewardAssignmentTable {
  seq: Generated<number>;
  id: string;
  reward_id: string;
  campaign_id: string;
  /** The points cost; null for COIN rewards. */
  points: number | null;
  auto_redeem: number | null;
  created_at: string;
  updated_at: string | null;
}

export interface RewardsTables {
  rewards: RewardTable;
  reward_assignments: RewardAssignmentTable;
}
