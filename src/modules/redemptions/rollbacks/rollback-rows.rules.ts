import type { Actor } from '../../../lib/actor.js';
import type { Customer } from '../pipeline/redemption-customer.service.js';
import type { RedemptionRow } from '../redemptions.presenter.js';
import { NO_RELATED_REDEMPTIONS } from '../redemptions.repository.js';
import type { RollbackInput } from './rollbacks.schemas.js';
import type { RollbackOrderMode } from '../../../lib/enums.js';

/**
 * Rollback records (voucherify-facts 2.6): rows of the redemptions table with `object`
 * redemption_rollback and `parent_id` the redemption rolled back. A record copies what its
 * redemption names (voucher, tier, campaign, reward) so the list filters find it beside it, and
 * negates what it took (`amount`, `gift.amount`, `loyalty_card.points`). `tracking_id` is the
 * one sent, else the redemption's; `metadata` the one sent, else null (the reference's
 * example answers null).
 */
export interface RollbackRowContext {
  at: string;
  actor: Actor;
  input: RollbackInput;
  customer: Customer | null;
  mode: RollbackOrderMode;
}

const negate = (value: number | null): number | null => (value === null ? null : -value);
const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

export function rollbackRow(
  id: string,
  original: RedemptionRow,
  order: unknown,
  ctx: RollbackRowContext,
): RedemptionRow {
  return {
    ...original,
    seq: 0,
    id,
    object: 'redemption_rollback',
    parent_id: original.id,
    created_at: ctx.at,
    customer_id: ctx.customer?.id ?? original.customer_id,
    tracking_id: ctx.input.trackingId ?? original.tracking_id,
    metadata: json(ctx.input.metadata),
    amount: negate(original.amount),
    result: 'SUCCESS',
    status: 'SUCCEEDED',
    failure_code: null,
    failure_message: null,
    reason: ctx.input.reason,
    rollback_order_mode: ctx.mode,
    // A parent's rollback is related to itself, as its parent redemption is.
    related_object_id: original.related_object_type === 'redemption' ? id : original.related_object_id,
    order_snapshot: json(order),
    customer_snapshot: ctx.customer ? json(ctx.customer) : original.customer_snapshot,
    gift_amount: negate(original.gift_amount),
    loyalty_points: negate(original.loyalty_points),
    channel_id: ctx.actor.api_key?.app_id ?? null,
    channel_type: 'API',
    session_key: null,
    related_redemptions: NO_RELATED_REDEMPTIONS,
  };
}

/** A parent's rollback: the sum of its children's amounts, and their rollbacks listed. */
export function parentRollbackRow(
  id: string,
  original: RedemptionRow,
  children: RedemptionRow[],
  order: unknown,
  ctx: RollbackRowContext,
): RedemptionRow {
  const amounts = children.map((c) => c.amount).filter((a): a is number => a !== null);
  return {
    ...rollbackRow(id, original, order, ctx),
    amount: amounts.length > 0 ? amounts.reduce((a, b) => a + b, 0) : null,
    related_redemptions: JSON.stringify({
      rollbacks: [],
      redemptions: children.map((c) => ({ id: c.id, date: c.created_at })),
    }),
  };
}

/** A refused rollback (rrf_): the redemption it names, the failure, no order. */
export function failedRollbackRow(
  id: string,
  original: RedemptionRow,
  failure: { key: string; message: string },
  ctx: RollbackRowContext,
): RedemptionRow {
  return {
    ...rollbackRow(id, original, null, ctx),
    amount: null,
    gift_amount: null,
    loyalty_points: null,
    order_snapshot: null,
    rollback_order_mode: null,
    result: 'FAILURE',
    status: 'FAILED',
    failure_code: failure.key,
    failure_message: failure.message,
  };
}
