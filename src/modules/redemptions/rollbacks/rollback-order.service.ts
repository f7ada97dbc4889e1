import type { RollbackOrderMode } from '../../../lib/enums.js';
import { recordOrderRedemption, findOrderObject, type OrderObject } from '../../orders/index.js';
import { calculatedOrder, unchangedFigures, type CalculatedOrderObject } from '../pipeline/calculated-order.rules.js';
import type { RedemptionRow } from '../redemptions.presenter.js';
import type { Tx } from '../../../db/engine.js';

/**
 * A rollback on the redemption's order (voucherify-facts 2.6, the stacking rules'
 * `redeemables_rollback_order_mode`). The order's `redemptions` entry of the stack gains the
 * rollback: `rollback_id` and `rollback_date` when the whole stack is rolled back, and each
 * rolled-back child's rollback id in `rollback_stacked`, in both modes (it is the record of what
 * happened); a single redemption's entry (no parent) gains `rollback_id` and `rollback_date`. WITH_ORDER (the default) also takes the rolled-back redemptions' discounts off
 * the order (each child's `applied_*` figures, order-level and per item), so the order is as
 * if they had never applied; WITHOUT_ORDER leaves its figures as they are.
 */
export interface OrderRollback {
  /** The stack's parent: the key of the order's `redemptions` entry. */
  parentId: string;
  /** The parent's rollback, when the whole stack is rolled back. */
  parentRollbackId: string | null;
  /** The children rolled back, with their rollback ids. */
  children: Array<{ child: RedemptionRow; rollbackId: string }>;
  mode: RollbackOrderMode;
  at: string;
}

type Entry = Record<string, unknown> & { rollback_stacked?: string[] };

function entryAfter(order: OrderObject, change: OrderRollback): Record<string, unknown> {
  const map = (order.redemptions ?? {}) as Record<string, Entry>;
  const entry: Entry = {
    ...(map[change.parentId] ?? {
      date: change.at,
      related_object_type: 'redemption',
      related_object_id: change.parentId,
    }),
  };
  // A single redemption's own entry (the legacy endpoints write no parent) gains its rollback as a parent's does.
  const single = entry.related_object_type !== 'redemption' ? change.children[0]?.rollbackId : undefined;
  const wholeRollbackId = change.parentRollbackId ?? single;
  if (wholeRollbackId) Object.assign(entry, { rollback_id: wholeRollbackId, rollback_date: change.at });
  if (!single)
    entry.rollback_stacked = [...(entry.rollback_stacked ?? []), ...change.children.map((c) => c.rollbackId)];
  return { ...map, [change.parentId]: entry };
}

interface Applied {
  applied_discount_amount?: number;
  items_applied_discount_amount?: number;
  items?: Array<{ applied_discount_amount?: number; applied_discount_quantity?: number }>;
}

/** The order's discounts without the rolled-back children's (never below zero). */
function figuresWithout(order: OrderObject, children: RedemptionRow[]) {
  const applied = children.map((c) => (c.order_snapshot === null ? {} : (JSON.parse(c.order_snapshot) as Applied)));
  const sum = (pick: (a: Applied) => number | undefined) => applied.reduce((total, a) => total + (pick(a) ?? 0), 0);
  const items = order.items.flatMap((item, position) => {
    const amount = sum((a) => a.items?.[position]?.applied_discount_amount);
    const quantity = sum((a) => a.items?.[position]?.applied_discount_quantity);
    if (amount === 0 && quantity === 0) return [];
    const discountQuantity =
      item.discount_quantity === undefined ? null : Math.max(0, item.discount_quantity - quantity);
    return [
      {
        position,
        discount_amount: Math.max(0, (item.discount_amount ?? 0) - amount),
        discount_quantity: discountQuantity,
      },
    ];
  });
  return {
    discount_amount: Math.max(0, (order.discount_amount ?? 0) - sum((a) => a.applied_discount_amount)),
    items_discount_amount: Math.max(
      0,
      (order.items_discount_amount ?? 0) - sum((a) => a.items_applied_discount_amount),
    ),
    items,
  };
}

/** Records the rollback on the order; answers the order after it (OrderCalculated), or null without one. */
export async function rollBackOnOrder(
  trx: Tx,
  orderId: string | null,
  change: OrderRollback,
): Promise<CalculatedOrderObject | null> {
  if (orderId === null) return null;
  const order = await findOrderObject(trx, orderId);
  // An order deleted since: the rollback has no order to change or show.
  if (!order) return null;
  const kept = {
    discount_amount: order.discount_amount ?? 0,
    items_discount_amount: order.items_discount_amount ?? 0,
    items: [],
  };
  const figures =
    change.mode === 'WITH_ORDER'
      ? figuresWithout(
          order,
          change.children.map((c) => c.child),
        )
      : kept;
  // Units a UNIT discount added stay on the order (at their price, no longer discounted).
  await recordOrderRedemption(trx, order.id, {
    ...figures,
    amount: order.amount,
    added: [],
    redemptions: entryAfter(order, change),
    total_amount_before: order.total_amount,
    at: change.at,
  });
  const after = (await findOrderObject(trx, orderId)) as OrderObject;
  return calculatedOrder(after, unchangedFigures(after), after.redemptions ?? {});
}
