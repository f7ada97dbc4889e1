import type { Deps } from '../../app/deps.js';
import { matchesFilter } from '../../engine/conditions/index.js';
import type { CustomerChanged } from '../customers/index.js';
import { emit } from '../events/index.js';
import { customerValues } from './segment-fields.rules.js';
import { storedFilter } from './segments.filters.js';
import { SEGMENT_ENTERED } from './segment-entered.seam.js';
import { presentSimpleSegment, type SegmentRow } from './segments.presenter.js';
import * as repo from './segments.repository.js';
import type { Db, Tx } from '../../db/engine.js';

/** Whether a customer (its values: customerValues) is in a dynamic segment by its filter, at `at` (relative dates). */
export const holdsFor = (segment: SegmentRow, values: (field: string) => unknown, at: Date): boolean =>
  matchesFilter(storedFilter(segment.filter as string), values, at);

/** The entered / left activity of an auto-update segment (passive ones have none, as the reference's). */
async function announce(
  trx: Tx,
  change: CustomerChanged,
  segment: SegmentRow,
  type: 'customer.segment.entered' | 'customer.segment.left',
) {
  if (segment.type !== 'auto-update' || !change.emitEvents) return;
  await emit(trx, {
    type,
    customer_id: change.row.id,
    data: { customer: change.customer, segment: presentSimpleSegment(segment) },
    actor: change.actor,
    created_at: change.at,
  });
}

async function enter(deps: Pick<Deps, 'seams'>, trx: Tx, change: CustomerChanged, segment: SegmentRow): Promise<void> {
  const entered = await repo.insertMembers(trx, segment.id, [change.row.id]);
  if (entered.length === 0) return;
  await announce(trx, change, segment, 'customer.segment.entered');
  // A passive segment has no entry event, and a historical import (no events) earns nothing.
  if (segment.type !== 'auto-update' || !change.emitEvents) return;
  await deps.seams.fire(SEGMENT_ENTERED, trx, {
    segmentId: segment.id,
    customerId: change.row.id,
    actor: change.actor,
    at: change.at,
  });
}

async function leave(trx: Tx, change: CustomerChanged, segment: SegmentRow): Promise<void> {
  if (await repo.deleteMember(trx, segment.id, change.row.id))
    await announce(trx, change, segment, 'customer.segment.left');
}

/**
 * The dynamic segments, read once per transaction: while it holds the write lock no other
 * connection can change them, and no transaction both changes segments and customers. A job's
 * portion of 1,000 imported customers reads them once, not 1,000 times (a shop with no segment
 * pays one query a portion).
 */
const dynamicByTransaction = new WeakMap<Db, Promise<SegmentRow[]>>();

function dynamicSegments(trx: Tx): Promise<SegmentRow[]> {
  let segments = dynamicByTransaction.get(trx);
  if (!segments) dynamicByTransaction.set(trx, (segments = repo.listDynamicSegments(trx)));
  return segments;
}

/**
 * CUSTOMER_CHANGED's subscriber: the customer's dynamic memberships follow its fields, in the
 * change's transaction. Each segment's filter is evaluated on the row as written; an entry
 * writes `customer.segment.entered` and fires SEGMENT_ENTERED (earning rules), a departure
 * writes `customer.segment.left`. The membership row's insert or delete decides, so two
 * writers never both enter (or leave) one customer.
 */
export async function followCustomer(deps: Pick<Deps, 'seams'>, trx: Tx, change: CustomerChanged): Promise<void> {
  const segments = await dynamicSegments(trx);
  if (segments.length === 0) return;
  const current = new Set((await repo.listCustomerSegments(trx, change.row.id)).map((s) => s.id));
  const at = new Date(change.at);
  const values = customerValues(change.row);
  for (const segment of segments) {
    const holds = holdsFor(segment, values, at);
    if (holds && !current.has(segment.id)) await enter(deps, trx, change, segment);
    else if (!holds && current.has(segment.id)) await leave(trx, change, segment);
  }
}
