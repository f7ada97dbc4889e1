import type { Db } from '../../db/engine.js';
import { duplicateFound } from '../../lib/errors.js';
import { contentOf, type OrderColumns, type OrderDraft, type StoredOrder } from './order-draft.service.js';
import * as repo from './orders.repository.js';

/** What an order body changes on a stored order: checked here, written by its caller (or only previewed). */

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

/** What a body changes on a stored order (checked, not written); undefined when nothing. */
export async function changesOf(
  db: Db,
  stored: StoredOrder,
  draft: OrderDraft,
): Promise<{ patch: Partial<OrderColumns>; itemsChanged: boolean } | undefined> {
  const patch = changedColumns(stored.row, draft.columns);
  const itemsChanged = !sameItems(stored, draft);
  if (Object.keys(patch).length === 0 && !itemsChanged) return undefined;
  await assertSourceIdFree(db, stored.row.id, patch.source_id);
  return { patch, itemsChanged };
}
