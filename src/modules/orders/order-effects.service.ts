import type { OrderStatus } from '../../lib/enums.js';
import {
  recordOrderInSummary,
  setLastOrderInSummary,
  withdrawOrderFromSummary,
  type FirstOrder,
  findSimpleCustomer,
} from '../customers/index.js';
import { type CustomerEventType, emit } from '../events/index.js';
import type { OrderContext } from './order-draft.service.js';
import { ORDER_PAID } from './order-paid.seam.js';
import { ORDER_STATUS_CHANGED } from './order-status.seam.js';
import type { OrderObject } from './orders.presenter.js';
import * as repo from './orders.repository.js';
import type { Db, Tx } from '../../db/engine.js';

/**
 * What a stored change of an order causes, inside its transaction: the customers' summary
 * figures, the customer events (the reference's "List Customer Activity" `type` names) and the paid-order seam.
 */

/**
 * summary.orders counts PAID and FULFILLED orders only (the reference's CustomerSummaryOrders),
 * each with its total_amount (what the customer paid, after discounts) on its created_at.
 */
const COUNTED: readonly OrderStatus[] = ['PAID', 'FULFILLED'];

interface Counted {
  customerId: string;
  amount: number;
  date: string;
}

const countedOf = (row: repo.OrderRow | undefined): Counted | null =>
  row && row.customer_id !== null && COUNTED.includes(row.status)
    ? { customerId: row.customer_id, amount: row.total_amount, date: row.created_at }
    : null;

const sameCount = (a: Counted | null, b: Counted | null): boolean =>
  a === b || (a !== null && b !== null && a.customerId === b.customerId && a.amount === b.amount && a.date === b.date);

/** What a new order (its columns) counts in its customer's summary.orders, if anything: a new customer's insert carries it. */
export const countedInNew = (
  columns: Pick<repo.NewOrderRow, 'status' | 'amount' | 'discount_amount' | 'items_discount_amount' | 'created_at'>,
): FirstOrder | undefined =>
  COUNTED.includes(columns.status)
    ? {
        amount: columns.amount - (columns.discount_amount ?? 0) - (columns.items_discount_amount ?? 0),
        date: columns.created_at,
      }
    : undefined;

/**
 * Moves the order's figures in summary.orders from what it counted before (if anything) to
 * what it counts now: canceled or reopened, re-priced, moved to another customer. A customer
 * the order left gets last_order_* from its latest order that still counts. `at` is the
 * customers' new updated_at; null keeps it (an import's history).
 */
export async function moveOrderInSummary(
  trx: Tx,
  before: repo.OrderRow | undefined,
  after: repo.OrderRow,
  at: string | null,
): Promise<void> {
  const was = countedOf(before);
  const now = countedOf(after);
  if (sameCount(was, now)) return;
  if (was) await withdrawOrderFromSummary(trx, { customer_id: was.customerId, amount: was.amount, at });
  if (now)
    await recordOrderInSummary(trx, { customer_id: now.customerId, amount: now.amount, order_date: now.date, at });
  if (was) {
    const latest = await repo.findLatestCountedOrder(trx, was.customerId);
    const last = latest ? { amount: latest.total_amount, date: latest.created_at } : null;
    await setLastOrderInSummary(trx, { customer_id: was.customerId, last, at });
  }
}

const STATUS_EVENTS: Partial<Record<OrderStatus, CustomerEventType>> = {
  PAID: 'customer.order.paid',
  CANCELED: 'customer.order.canceled',
  FULFILLED: 'customer.order.fulfilled',
};

/** What happened to the order in this change, for its events. */
export interface OrderChange {
  created: boolean;
  statusChanged: boolean;
}

/**
 * `customer.order.created` for a new order, `customer.order.updated` for a changed one, and
 * the status's own event when the status is new (a reopened CREATED order has none of its
 * own). They go to the order's customer's feed; an order without a customer has no feed.
 * Their data is the reference's EventCustomerOrder: customer, referrer and the order.
 */
export async function emitOrderEvents(
  trx: Tx,
  ctx: OrderContext,
  change: OrderChange,
  order: OrderObject,
): Promise<void> {
  if (order.customer_id === null) return;
  const types: CustomerEventType[] = [change.created ? 'customer.order.created' : 'customer.order.updated'];
  const statusEvent = STATUS_EVENTS[order.status];
  if (statusEvent && (change.created || change.statusChanged)) types.push(statusEvent);
  const customer =
    ctx.customer?.id === order.customer_id ? ctx.customer : await findSimpleCustomer(trx, order.customer_id);
  const referrer = order.referrer_id === null ? undefined : await findSimpleCustomer(trx, order.referrer_id);
  const data = { customer, ...(referrer ? { referrer } : {}), order };
  for (const type of types) {
    await emit(trx, { type, customer_id: order.customer_id, data, actor: ctx.actor, created_at: ctx.at });
  }
}

/**
 * The paid-order seam's guard (order-paid.seam.ts): a PAID order claims paid_at in one guarded
 * statement, and true means this writer claimed it, so it alone fires the seam. An imported
 * PAID order is claimed too, so it never fires later. (A new order is claimed by its insert.)
 */
export async function claimPaid(trx: Tx, row: repo.OrderRow, at: string): Promise<boolean> {
  return row.status === 'PAID' && repo.claimPaid(trx, row.id, at);
}

/** Fires the paid-order seam for an order this writer claimed paid. */
export async function firePaidSeam(trx: Tx, ctx: OrderContext, order: OrderObject): Promise<void> {
  await ctx.seams.fire(ORDER_PAID, trx, { order, actor: ctx.actor, at: ctx.at });
}

/** Fires the order-status seam for a stored order whose status changed in this write. */
export async function fireStatusSeam(
  trx: Tx,
  ctx: OrderContext,
  order: OrderObject,
  previous: OrderStatus,
): Promise<void> {
  await ctx.seams.fire(ORDER_STATUS_CHANGED, trx, { order, previous, actor: ctx.actor, at: ctx.at });
}
