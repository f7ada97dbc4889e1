import type { Tx } from '../../db/engine.js';
import type { Actor } from '../../lib/actor.js';
import { seam, type Seams, type Subscriber } from '../../lib/seams.js';
import type { OrderObject } from './orders.presenter.js';

/**
 * THE PAID-ORDER SEAM: fired inside the order's transaction when an order becomes PAID for the
 * first time (created PAID, or updated to PAID), whoever stores it (POST/PUT /v1/orders,
 * redemptions). It fires once per order: the order's paid_at is claimed by one guarded
 * statement (`UPDATE ... WHERE paid_at IS NULL`, or the insert of a new PAID order), and only
 * the writer that claims it fires, so an order re-sent as PAID, canceled and paid again, or
 * paid by two processes at once fires once. Order import claims paid_at without firing
 * (historical orders earn nothing).
 *
 * Subscribers (loyalty's earning rules first) run in the same transaction: what they write
 * commits with the order, and a subscriber that throws fails the request that paid it.
 */
export interface PaidOrder {
  /** The order as the API answers it, after the change that paid it. */
  order: OrderObject;
  actor: Actor;
  /** The time of the change. */
  at: string;
}

export const ORDER_PAID = seam<Tx, PaidOrder>('order.paid');

export type PaidOrderSubscriber = Subscriber<Tx, PaidOrder>;

/** Subscribes to orders becoming PAID (at composition, on the Deps' seams); returns the unsubscribe. */
export const onOrderPaid = (seams: Seams, subscriber: PaidOrderSubscriber): (() => void) =>
  seams.subscribe(ORDER_PAID, subscriber);
