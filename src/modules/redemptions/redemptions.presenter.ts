import type { Selectable } from 'kysely';

import type {
  RedemptionChannelType,
  RedemptionRelatedType,
  RedemptionResult,
  RedemptionStatus,
  RollbackOrderMode,
} from '../../lib/enums.js';
import type { RawJson } from '../../lib/raw-json.js';
import type { RedemptionTable } from './redemptions.table.js';

/**
 * A stored row as the reference's `Redemption` object (voucherify-facts 1.16) or, for
 * rollback records, `RedemptionRollback` (voucherify-facts 2.6). The row holds every snapshot
 * the answer shows, so presenting is pure: the list, GET by id and the redeem answer all use
 * this one function. Fields are in the reference's order; the blocks a record does not
 * concern (voucher, promotion_tier, reward, gift, loyalty_card, failure fields) are left out,
 * as the reference's examples leave them out.
 */
export type RedemptionRow = Selectable<RedemptionTable>;

export interface RelatedRedemptions {
  rollbacks: { id: string; date: string; rollback_order_mode?: RollbackOrderMode }[];
  redemptions: { id: string; date: string }[];
}

export interface RedemptionObject {
  id: string;
  object: 'redemption' | 'redemption_rollback';
  date: string;
  customer_id: string | null;
  tracking_id: string | null;
  metadata: Record<string, unknown> | null;
  amount?: number;
  redemption: string | null;
  reason?: string;
  result: RedemptionResult;
  status: RedemptionStatus;
  session?: { key: string };
  related_redemptions?: RelatedRedemptions;
  failure_code?: string;
  failure_message?: string;
  /** A record just written holds its snapshot's text (RawJson: written as is into the answer and events). */
  order: Record<string, unknown> | RawJson | null;
  channel: { channel_id: string | null; channel_type: RedemptionChannelType };
  customer: Record<string, unknown> | null;
  related_object_type: RedemptionRelatedType;
  related_object_id: string;
  voucher?: Record<string, unknown>;
  promotion_tier?: Record<string, unknown>;
  reward?: Record<string, unknown>;
  gift?: { amount: number };
  loyalty_card?: { points: number };
}

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** Present only when set: the answer leaves the field out otherwise. */
const some = <K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } =>
  (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

export const presentRedemption = (row: RedemptionRow): RedemptionObject => presentWith(row, json(row.order_snapshot));

/**
 * A record just written, with its `order_snapshot` text as a RawJson: the same answer
 * (JSON.stringify of an object and of its JSON read back give the same text) without parsing
 * the snapshot back or serializing it again (~2 KiB for a 3-item order, in the answer and in
 * each child's event).
 */
export const presentWrittenRedemption = (row: RedemptionRow, order: RawJson | null): RedemptionObject =>
  presentWith(row, order);

function presentWith(row: RedemptionRow, order: RedemptionObject['order']): RedemptionObject {
  const rollback = row.object === 'redemption_rollback';
  return {
    id: row.id,
    object: row.object,
    date: row.created_at,
    customer_id: row.customer_id,
    tracking_id: row.tracking_id,
    metadata: json(row.metadata),
    ...some('amount', row.amount),
    redemption: row.parent_id,
    ...(rollback ? some('reason', row.reason) : {}),
    result: row.result,
    status: row.status,
    ...some('session', row.session_key === null ? null : { key: row.session_key }),
    ...(rollback ? {} : { related_redemptions: JSON.parse(row.related_redemptions) as RelatedRedemptions }),
    ...some('failure_code', row.failure_code),
    ...some('failure_message', row.failure_message),
    order,
    channel: { channel_id: row.channel_id, channel_type: row.channel_type },
    customer: json(row.customer_snapshot),
    related_object_type: row.related_object_type,
    related_object_id: row.related_object_id,
    ...some('voucher', json<Record<string, unknown>>(row.voucher_snapshot)),
    ...some('promotion_tier', json<Record<string, unknown>>(row.promotion_tier_snapshot)),
    ...some('reward', json<Record<string, unknown>>(row.reward_snapshot)),
    ...some('gift', row.gift_amount === null ? null : { amount: row.gift_amount }),
    ...some('loyalty_card', row.loyalty_points === null ? null : { points: row.loyalty_points }),
  };
}
