import type { Tx } from '../../db/engine.js';
import type { Actor } from '../../lib/actor.js';
import type { OrderStatus } from '../../lib/enums.js';
import { seam, type Seams, type Subscriber } from '../../lib/seams.js';
import type { OrderObject } from './orders.presenter.js';

/**
 * THE ORDER-STATUS SEAM: fired inside the order's transaction when a stored order's status
 * changes (PUT /v1/orders, or an upsert by POST), after the change is written and after the
 * paid-order seam. Loyalty subscribes to it so an order CANCELED before its pending points
 * activate cancels them, without orders knowing loyalty. Order import fires no seam
 * (historical orders, as for the paid-order seam). A new order has no previous status and
 * fires nothing here.
 */
export interface OrderStatusChange {
  /** The order as the API answers it, after the change. */
  order: OrderObject;
  previous: OrderStatus;
  actor: Actor;
  at: string;
}

export const ORDER_STATUS_CHANGED = seam<Tx, OrderStatusChange>('order.status_changed');

/** Subscribes to order status changes (at composition, on the Deps' seams); returns the unsubscribe. */
export const onOrderStatusChanged = (seams: Seams, subscriber: Subscriber<Tx, OrderStatusChange>): (() => void) =>
  seams.subscribe(ORDER_STATUS_CHANGED, subscriber);
