import type { Generated } from 'kysely';

export const SEGMENT_TYPES = ['static', 'auto-update', 'passive'] as const;
export type SegmentType = (typeof SEGMENT_TYPES)[number];

export interface SegmentTable {
  seq: Generated<number>;
  id: string;
  name: string;
  type: SegmentType;
  /** JSON: the checked filter of an auto-update or passive segment; null for static. */
  filter: string | null;
  initial_sync_status: 'IN_PROGRESS' | 'DONE';
  created_at: string;
}

/** A membership, with the customer's list keys (kept by a trigger: sql/0031). */
export interface SegmentMemberTable {
  segment_id: string;
  customer_id: string;
  customer_seq: number;
  created_at: string;
  updated_at: string;
  source_id: string | null;
}

export interface SegmentsTables {
  segments: SegmentTable;
  segment_members: SegmentMemberTable;
}
