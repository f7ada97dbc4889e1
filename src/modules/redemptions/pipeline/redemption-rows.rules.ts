import type { Actor } from '../../../lib/actor.js';
import type { RedemptionRow } from '../redemptions.presenter.js';
import { NO_RELATED_REDEMPTIONS } from '../redemptions.repository.js';
import type { LoadedRedeemable } from './redeemable-load.service.js';
import { relatedObjectOf } from './redeemable-load.service.js';
import type { Customer } from './redemption-plan.service.js';
import type { Failure } from './redeemable-check.rules.js';

/**
 * Rows of the redemptions table as one request writes them, built whole so that the answer is
 * presented from them without reading anything back.
 */
export interface RowContext {
  at: string;
  customer: Customer | null;
  /** The customer's snapshot text, serialized once for every row of the request. */
  customerSnapshot: string | null;
  trackingId: string | null;
  metadata: Record<string, unknown> | null;
  actor: Actor;
  sessionKey: string | null;
  orderId: string | null;
}

const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

function baseRow(id: string, ctx: RowContext): RedemptionRow {
  return {
    seq: 0,
    id,
    object: 'redemption',
    parent_id: null,
    created_at: ctx.at,
    customer_id: ctx.customer?.id ?? null,
    tracking_id: ctx.trackingId,
    metadata: json(ctx.metadata),
    amount: null,
    result: 'SUCCESS',
    status: 'SUCCEEDED',
    failure_code: null,
    failure_message: null,
    reason: null,
    rollback_order_mode: null,
    related_object_type: 'redemption',
    related_object_id: id,
    related_object_parent_id: null,
    voucher_id: null,
    voucher_code: null,
    campaign_id: null,
    campaign_name: null,
    promotion_tier_id: null,
    order_id: ctx.orderId,
    order_snapshot: null,
    customer_snapshot: ctx.customerSnapshot,
    voucher_snapshot: null,
    promotion_tier_snapshot: null,
    reward_snapshot: null,
    gift_amount: null,
    loyalty_points: null,
    channel_id: ctx.actor.api_key?.app_id ?? null,
    channel_type: 'API',
    session_key: ctx.sessionKey,
    related_redemptions: NO_RELATED_REDEMPTIONS,
  };
}

/** The voucher or tier a row names, with its campaign (the list's filters and the answer's blocks). */
function relatedColumns(loaded: LoadedRedeemable): Partial<RedemptionRow> {
  const related = relatedObjectOf(loaded);
  const { voucher, tier } = loaded;
  const campaignName = voucher?.campaign_name ?? tier?.campaign.name ?? null;
  return {
    related_object_type: related.type,
    related_object_id: related.id,
    related_object_parent_id: related.campaignId,
    voucher_id: voucher?.id ?? null,
    voucher_code: voucher?.code ?? (loaded.body.object === 'voucher' ? loaded.body.id : null),
    campaign_id: related.campaignId,
    campaign_name: campaignName,
    promotion_tier_id: tier?.tier.id ?? null,
    voucher_snapshot: voucher
      ? json({
          id: voucher.id,
          code: voucher.code,
          campaign: voucher.campaign_name,
          campaign_id: voucher.campaign_id,
          object: 'voucher',
        })
      : null,
    promotion_tier_snapshot: tier ? json(tier.view) : null,
  };
}

export interface ChildFigures {
  order: unknown;
  giftAmount: number | null;
  loyaltyPoints: number | null;
  reward: unknown;
}

export function childRow(
  id: string,
  parentId: string | null,
  loaded: LoadedRedeemable,
  figures: ChildFigures,
  ctx: RowContext,
): RedemptionRow {
  const amount = figures.giftAmount ?? figures.loyaltyPoints;
  return {
    ...baseRow(id, ctx),
    ...relatedColumns(loaded),
    parent_id: parentId,
    amount,
    order_snapshot: json(figures.order),
    gift_amount: figures.giftAmount,
    loyalty_points: figures.loyaltyPoints,
    reward_snapshot: json(figures.reward),
  };
}

export function parentRow(id: string, children: RedemptionRow[], order: unknown, ctx: RowContext): RedemptionRow {
  const amounts = children.map((c) => c.amount).filter((a): a is number => a !== null);
  return {
    ...baseRow(id, ctx),
    amount: amounts.length > 0 ? amounts.reduce((a, b) => a + b, 0) : null,
    order_snapshot: json(order),
    related_redemptions: JSON.stringify({
      rollbacks: [],
      redemptions: children.map((c) => ({ id: c.id, date: c.created_at })),
    }),
  };
}

/** A refused redeemable's failed redemption (rf_): no order, its failure code and message. */
export function failedRow(id: string, loaded: LoadedRedeemable, refusal: Failure, ctx: RowContext): RedemptionRow {
  return {
    ...baseRow(id, ctx),
    ...relatedColumns(loaded),
    order_id: null,
    result: 'FAILURE',
    status: 'FAILED',
    failure_code: refusal.key,
    failure_message: refusal.message,
  };
}
