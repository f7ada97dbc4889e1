import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { timeOrderedId } from '../../lib/ids.js';
import {
  API_UPSERT,
  customerContext,
  draftOrder,
  itemRows,
  newOrderRow,
  STORE_UPSERTS,
  type OrderContext,
  type OrderDraft,
  type StoredOrder,
  type UpsertOptions,
} from './order-draft.service.js';
import { insertPlannedCustomer } from '../customers/index.js';
import {
  claimPaid,
  countedInNew,
  emitOrderEvents,
  firePaidSeam,
  fireStatusSeam,
  moveOrderInSummary,
} from './order-effects.service.js';
import { presentOrder, type OrderObject } from './orders.presenter.js';
import { changesOf } from './order-changes.service.js';
import { loadOrder, lockedOrder, namedOrderRow } from './stored-order.service.js';
import * as repo from './orders.repository.js';
import type { CreateOrderBody, UpdateOrderBody } from './orders.schemas.js';
import type { Tx } from '../../db/engine.js';

export { API_UPSERT, IMPORT_UPSERT, type OrderContext, type UpsertOptions } from './order-draft.service.js';

type ReadDeps = Pick<Deps, 'db'>;
type WriteDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

export interface OrderUpsertResult {
  order: OrderObject;
  created: boolean;
  /** False when an existing order was sent nothing new (no write, no event, updated_at kept). */
  changed: boolean;
}

const present = (stored: StoredOrder): OrderObject => presentOrder(stored.row, stored.items);

/** The order after the change, or undefined when the body changed nothing. */
async function writeChanges(
  trx: Tx,
  ctx: OrderContext,
  stored: StoredOrder,
  draft: OrderDraft,
): Promise<StoredOrder | undefined> {
  const changes = await changesOf(trx, stored, draft);
  if (!changes) return undefined;
  const row = await repo.updateOrder(trx, stored.row.id, { ...changes.patch, updated_at: ctx.at });
  if (!changes.itemsChanged) return { row, items: stored.items };
  const items = itemRows(row.id, draft.items ?? []);
  await repo.replaceItems(trx, row.id, items);
  return { row, items };
}

/** What an upsert stored: the order before and after, and whether it claimed the order paid. */
export interface StoredChange {
  before: repo.OrderRow | undefined;
  after: StoredOrder;
  created: boolean;
  /** False when an existing order was sent nothing new (no write, no event, updated_at kept). */
  changed: boolean;
  /** The order became paid for the first time in this change (the paid-order seam's claim). */
  claimedPaid: boolean;
}

async function applyUpdate(
  trx: Tx,
  ctx: OrderContext,
  stored: StoredOrder,
  input: CreateOrderBody,
  options: UpsertOptions,
): Promise<StoredChange> {
  const draft = await draftOrder(trx, ctx, stored, input, options, STORE_UPSERTS);
  const after = await writeChanges(trx, ctx, stored, draft);
  // Nothing new: the order was claimed when it became PAID, so the seam has nothing to do.
  if (!after) return { before: stored.row, after: stored, created: false, changed: false, claimedPaid: false };
  await moveOrderInSummary(trx, stored.row, after.row, summaryAt(ctx, options));
  return {
    before: stored.row,
    after,
    created: false,
    changed: true,
    claimedPaid: await claimPaid(trx, after.row, ctx.at),
  };
}

/** The customers' updated_at a summary change sets: none for summaries as history (an import's). */
const summaryAt = (ctx: OrderContext, options: UpsertOptions): string | null =>
  options.historySummaries ? null : ctx.at;

/**
 * A new order is stored as the insert returns it (generated columns included) with the items
 * as inserted, so nothing is read back. A new PAID order is claimed by its own insert
 * (paid_at set): no other writer can have claimed a row that did not exist.
 */
async function insertNew(
  trx: Tx,
  ctx: OrderContext,
  input: CreateOrderBody,
  options: UpsertOptions,
): Promise<StoredChange> {
  return insertDrafted(trx, ctx, await draftOrder(trx, ctx, undefined, input, options, STORE_UPSERTS), options);
}

async function insertDrafted(
  trx: Tx,
  ctx: OrderContext,
  draft: OrderDraft,
  options: UpsertOptions,
): Promise<StoredChange> {
  const id = timeOrderedId('ord_', ctx.at);
  const paid = draft.columns.status === 'PAID';
  // A new customer planned by the draft counts this order in its insert: nothing to move after.
  if (draft.newCustomer)
    await insertPlannedCustomer(trx, customerContext(ctx, options), draft.newCustomer, countedInNew(draft.columns));
  const row = await repo.insertOrder(trx, newOrderRow(ctx, id, draft));
  const items = itemRows(id, draft.items ?? []);
  await repo.insertOrderItemRows(trx, items);
  if (!draft.newCustomer) await moveOrderInSummary(trx, undefined, row, summaryAt(ctx, options));
  return { before: undefined, after: { row, items }, created: true, changed: true, claimedPaid: paid };
}

/**
 * Creates an order, or updates the one the body names (by `id`, else by `source_id`), inside
 * the caller's transaction, with the customers' summaries and the paid-order claim, but
 * without presenting it, writing events or firing the seam: order import's path (each order
 * of an import, with IMPORT_UPSERT), and the first half of upsertOrder. An unknown `id` is
 * 404: ids are ours to assign.
 */
export async function storeOrder(
  trx: Tx,
  ctx: OrderContext,
  input: CreateOrderBody,
  options: UpsertOptions,
): Promise<StoredChange> {
  const row = await namedOrderRow(trx, input);
  return row ? applyUpdate(trx, ctx, await lockedOrder(trx, row), input, options) : insertNew(trx, ctx, input, options);
}

/** Presents a stored change, with its events (unless asked for none) and the paid-order seam. */
async function announce(
  trx: Tx,
  ctx: OrderContext,
  change: StoredChange,
  options: UpsertOptions,
): Promise<OrderUpsertResult> {
  const order = present(change.after);
  if (change.changed && options.emitEvents) {
    await emitOrderEvents(
      trx,
      ctx,
      { created: change.created, statusChanged: change.before?.status !== change.after.row.status },
      order,
    );
  }
  // Only the writer that claimed the order paid fires, so the seam fires once per order.
  if (change.claimedPaid && options.firePaidSeam) await firePaidSeam(trx, ctx, order);
  // The same flag: import (historical orders) fires neither seam.
  const previous = change.before?.status;
  if (options.firePaidSeam && previous !== undefined && previous !== order.status)
    await fireStatusSeam(trx, ctx, order, previous);
  return { order, created: change.created, changed: change.changed };
}

/**
 * storeOrder, then what a stored change causes besides: the events and the paid-order seam.
 * POST /v1/orders and redemptions storing their order call this.
 */
export async function upsertOrder(
  trx: Tx,
  ctx: OrderContext,
  input: CreateOrderBody,
  options: UpsertOptions,
): Promise<OrderUpsertResult> {
  return announce(trx, ctx, await storeOrder(trx, ctx, input, options), options);
}

const contextOf = (deps: WriteDeps, actor: Actor): OrderContext => ({
  actor,
  at: isoNow(deps.clock),
  seams: deps.seams,
});

/**
 * A new order a redemption names, drafted in the redemption's transaction but not inserted
 * yet: the redemption inserts it once, with its discounts and `redemptions`
 * (recordOrderRedemption), where an insert and then an update of the row and its items would
 * write it twice (and move its four updated_at index entries). Only an order whose insert
 * moves nothing else waits: one its customer's summary does not count (so not PAID: no
 * paid-order seam fires) and that plans no new customer.
 */
export interface PendingOrder {
  row: repo.FullOrderRow;
  items: repo.OrderItemRow[];
  /** The order as upsertOrder would answer it, before the redemption: what its events embed. */
  order: OrderObject;
  ctx: OrderContext;
}

/**
 * upsertOrder (API_UPSERT) for a redemption: the same order, except that a new one that can
 * wait is drafted only (`pending`) and written by the redemption's recordOrderRedemption.
 */
export async function stageOrder(
  trx: Tx,
  ctx: OrderContext,
  input: CreateOrderBody,
): Promise<OrderUpsertResult & { pending: PendingOrder | null }> {
  const named = await namedOrderRow(trx, input);
  if (named) {
    const change = await applyUpdate(trx, ctx, await lockedOrder(trx, named), input, API_UPSERT);
    return { ...(await announce(trx, ctx, change, API_UPSERT)), pending: null };
  }
  const draft = await draftOrder(trx, ctx, undefined, input, API_UPSERT, STORE_UPSERTS);
  if (draft.newCustomer || countedInNew(draft.columns)) {
    const change = await insertDrafted(trx, ctx, draft, API_UPSERT);
    return { ...(await announce(trx, ctx, change, API_UPSERT)), pending: null };
  }
  const row = newOrderRow(ctx, timeOrderedId('ord_', ctx.at), draft);
  const items = itemRows(row.id, draft.items ?? []);
  const order = present({ row: repo.asStored(row, 0), items });
  return { order, created: true, changed: true, pending: { row, items, order, ctx } };
}

/** POST /v1/orders. */
export async function createOrder(deps: WriteDeps, actor: Actor, input: CreateOrderBody): Promise<OrderObject> {
  const ctx = contextOf(deps, actor);
  return (await deps.db.transaction().execute((trx) => upsertOrder(trx, ctx, input, API_UPSERT))).order;
}

/** PUT /v1/orders/{id or source_id}: the fields given change, the others stay. */
export async function updateOrder(
  deps: WriteDeps,
  actor: Actor,
  ref: string,
  input: UpdateOrderBody,
): Promise<OrderObject> {
  const ctx = contextOf(deps, actor);
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findOrderByRef(trx, ref);
    if (!row) throw notFound('order', ref);
    return (
      await announce(trx, ctx, await applyUpdate(trx, ctx, await lockedOrder(trx, row), input, API_UPSERT), API_UPSERT)
    ).order;
  });
}

/** GET /v1/orders/{id or source_id}. */
export async function getOrder(deps: ReadDeps, ref: string): Promise<OrderObject> {
  const row = await repo.findOrderByRef(deps.db, ref);
  if (!row) throw notFound('order', ref);
  return present(await loadOrder(deps.db, row));
}

/** An order by id as the API answers it, inside the caller's transaction (redemption rollbacks). */
export async function findOrderObject(trx: Tx, id: string): Promise<OrderObject | undefined> {
  const row = await repo.findOrderById(trx, id);
  return row && present(await loadOrder(trx, row));
}
