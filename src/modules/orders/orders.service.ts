import type { Kysely } from 'kysely';
import type { Deps } from '../../app/deps.js';
import type { Database } from '../../db/database.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { duplicateFound, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import {
  API_UPSERT,
  contentOf,
  draftOrder,
  itemRows,
  type OrderColumns,
  type OrderContext,
  type OrderDraft,
  type StoredOrder,
  type UpsertOptions,
} from './order-draft.service.js';
import { emitOrderEvents, firePaidSeam, moveOrderInSummary } from './order-effects.service.js';
import { presentOrder, type OrderObject } from './orders.presenter.js';
import * as repo from './orders.repository.js';
import type { CreateOrderBody, UpdateOrderBody } from './orders.schemas.js';

export { API_UPSERT, IMPORT_UPSERT, type OrderContext, type UpsertOptions } from './order-draft.service.js';

type Db = Kysely<Database>;
type ReadDeps = Pick<Deps, 'db'>;
type WriteDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

export interface OrderUpsertResult {
  order: OrderObject;
  created: boolean;
  /** False when an existing order was sent nothing new (no write, no event, updated_at kept). */
  changed: boolean;
}

async function loadOrder(db: Db, row: repo.OrderRow): Promise<StoredOrder> {
  return { row, items: await repo.listItems(db, [row.id]) };
}

const present = (stored: StoredOrder): OrderObject => presentOrder(stored.row, stored.items);

/** The columns of the draft that differ from the stored row's. */
function changedColumns(row: repo.OrderRow, columns: OrderColumns): Partial<OrderColumns> {
  const entries = Object.entries(columns).filter(([key, value]) => row[key as keyof OrderColumns] !== value);
  return Object.fromEntries(entries) as Partial<OrderColumns>;
}

const sameItems = (stored: StoredOrder, draft: OrderDraft): boolean =>
  draft.items === undefined || JSON.stringify(stored.items.map(contentOf)) === JSON.stringify(draft.items);

async function assertSourceIdFree(trx: Db, selfId: string, sourceId: string | null | undefined): Promise<void> {
  if (sourceId == null) return;
  const holder = await repo.findOrderBySourceId(trx, sourceId);
  if (holder && holder.id !== selfId) throw duplicateFound('order', 'source_id', sourceId);
}

/** Stores what changed; false when nothing did. */
async function writeChanges(trx: Db, ctx: OrderContext, stored: StoredOrder, draft: OrderDraft): Promise<boolean> {
  const patch = changedColumns(stored.row, draft.columns);
  const itemsChanged = !sameItems(stored, draft);
  if (Object.keys(patch).length === 0 && !itemsChanged) return false;
  await assertSourceIdFree(trx, stored.row.id, patch.source_id);
  await repo.updateOrder(trx, stored.row.id, { ...patch, updated_at: ctx.at });
  if (itemsChanged) await repo.replaceItems(trx, stored.row.id, itemRows(stored.row.id, draft.items ?? []));
  return true;
}

/** The effects of a stored change: summaries, events (unless asked for none), the paid seam. */
async function afterWrite(trx: Db, ctx: OrderContext, before: repo.OrderRow | undefined, id: string, options: UpsertOptions) {
  const stored = await loadOrder(trx, (await repo.findOrderById(trx, id)) as repo.OrderRow);
  await moveOrderInSummary(trx, before, stored.row, ctx.at);
  const order = present(stored);
  if (options.emitEvents) {
    await emitOrderEvents(trx, ctx, { created: before === undefined, statusChanged: before?.status !== stored.row.status }, order);
  }
  await firePaidSeam(trx, ctx, order, options);
  return order;
}

async function applyUpdate(trx: Db, ctx: OrderContext, stored: StoredOrder, input: CreateOrderBody, options: UpsertOptions) {
  const draft = await draftOrder(trx, ctx, stored, input, options);
  // Nothing new: the order was claimed when it became PAID, so the seam has nothing to do.
  if (!(await writeChanges(trx, ctx, stored, draft))) return { order: present(stored), created: false, changed: false };
  return { order: await afterWrite(trx, ctx, stored.row, stored.row.id, options), created: false, changed: true };
}

async function insertNew(trx: Db, ctx: OrderContext, input: CreateOrderBody, options: UpsertOptions): Promise<OrderUpsertResult> {
  const draft = await draftOrder(trx, ctx, undefined, input, options);
  const id = newId('ord_');
  await repo.insertOrder(trx, { id, ...draft.columns, paid_at: null, updated_at: null });
  await repo.insertItems(trx, itemRows(id, draft.items ?? []));
  return { order: await afterWrite(trx, ctx, undefined, id, options), created: true, changed: true };
}

/**
 * Creates an order, or updates the one the body names (by `id`, else by `source_id`), inside
 * the caller's transaction: POST /v1/orders, redemptions storing their order, and each item
 * of an order import (with IMPORT_UPSERT). An unknown `id` is 404: ids are ours to assign.
 */
export async function upsertOrder(trx: Db, ctx: OrderContext, input: CreateOrderBody, options: UpsertOptions): Promise<OrderUpsertResult> {
  if (input.id != null) {
    const row = await repo.findOrderById(trx, input.id);
    if (!row) throw notFound('order', input.id);
    return applyUpdate(trx, ctx, await loadOrder(trx, row), input, options);
  }
  const existing = input.source_id != null ? await repo.findOrderBySourceId(trx, input.source_id) : undefined;
  return existing ? applyUpdate(trx, ctx, await loadOrder(trx, existing), input, options) : insertNew(trx, ctx, input, options);
}

const contextOf = (deps: WriteDeps, actor: Actor): OrderContext => ({ actor, at: isoNow(deps.clock), seams: deps.seams });

/** POST /v1/orders. */
export async function createOrder(deps: WriteDeps, actor: Actor, input: CreateOrderBody): Promise<OrderObject> {
  const ctx = contextOf(deps, actor);
  return (await deps.db.transaction().execute((trx) => upsertOrder(trx, ctx, input, API_UPSERT))).order;
}

/** PUT /v1/orders/{id or source_id}: the fields given change, the others stay. */
export async function updateOrder(deps: WriteDeps, actor: Actor, ref: string, input: UpdateOrderBody): Promise<OrderObject> {
  const ctx = contextOf(deps, actor);
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findOrderByRef(trx, ref);
    if (!row) throw notFound('order', ref);
    return (await applyUpdate(trx, ctx, await loadOrder(trx, row), input, API_UPSERT)).order;
  });
}

/** GET /v1/orders/{id or source_id}. */
export async function getOrder(deps: ReadDeps, ref: string): Promise<OrderObject> {
  const row = await repo.findOrderByRef(deps.db, ref);
  if (!row) throw notFound('order', ref);
  return present(await loadOrder(deps.db, row));
}
