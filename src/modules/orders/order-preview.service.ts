import type { Db } from '../../db/engine.js';
import { timeOrderedId } from '../../lib/ids.js';
import { changesOf } from './order-changes.service.js';
import {
  API_UPSERT,
  draftOrder,
  itemRows,
  newOrderRow,
  PREVIEW_UPSERTS,
  type OrderContext,
} from './order-draft.service.js';
import { presentOrder, type OrderObject } from './orders.presenter.js';
import { asStored } from './orders.repository.js';
import type { CreateOrderBody } from './orders.schemas.js';
import { namedOrder } from './stored-order.service.js';

/**
 * What upsertOrder (API_UPSERT) would answer for this body, from the same reads, drafts and
 * checks, writing nothing: the customers and catalog entries it names are previewed, not
 * upserted (a new one gets an id that is never stored), and no summary, event or seam moves.
 * A validation's order (its answer is the order a redemption would store now); a customer
 * previewed beside it (maybe new, so not stored) comes as `ctx.customer`.
 */
export async function previewOrder(
  db: Db,
  ctx: OrderContext,
  input: CreateOrderBody,
): Promise<{ order: OrderObject; created: boolean }> {
  const stored = await namedOrder(db, input);
  const draft = await draftOrder(db, ctx, stored, input, API_UPSERT, PREVIEW_UPSERTS);
  if (!stored) {
    // A new row as the database would hold it (never stored: seq 0), its items with no order id.
    const row = asStored(newOrderRow(ctx, timeOrderedId('ord_', ctx.at), draft), 0);
    return { order: presentOrder(row, itemRows('', draft.items ?? [])), created: true };
  }
  const changes = await changesOf(db, stored, draft);
  if (!changes) return { order: presentOrder(stored.row, stored.items), created: false };
  // The stored row changed: its seq and redemptions kept, its total recomputed.
  const row = asStored({ ...stored.row, ...changes.patch, updated_at: ctx.at }, stored.row.seq);
  const items = changes.itemsChanged ? itemRows(row.id, draft.items ?? []) : stored.items;
  return { order: presentOrder(row, items), created: false };
}
