import type { Deps } from '../../app/deps.js';
import { enqueueJob } from '../../jobs/jobs.service.js';
import { notifyJobEnqueued } from '../../jobs/jobs.events.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { invalidPayload, notFound } from '../../lib/errors.js';
import { JobType } from '../../lib/enums.js';
import { timeOrderedId } from '../../lib/ids.js';
import { listEnvelope } from '../../lib/pagination.js';
import { findSimpleCustomer } from '../customers/index.js';
import { customerValues, type CustomerFacts } from './segment-fields.rules.js';
import { checkedSegmentFilter } from './segments.filters.js';
import { holdsFor } from './segment-membership.service.js';
import { presentSegment, presentSimpleSegment, type SegmentObject, type SegmentRow } from './segments.presenter.js';
import * as repo from './segments.repository.js';
import { MAX_DYNAMIC_SEGMENTS, type CreateSegmentBody } from './segments.schemas.js';
import type { Db, Tx } from '../../db/engine.js';

type WriteDeps = Pick<Deps, 'db' | 'clock'>;
type ReadDeps = Pick<Deps, 'db' | 'clock'>;

/** What a SEGMENTS.INITIAL_SYNC job carries: the segment; its total is the highest customer seq at creation. */
export interface SegmentSyncPayload {
  segment_id: string;
}

/** A static segment's customers (ids or source ids) as ids: every one must exist (404 naming the first unknown). */
async function staticMembers(trx: Tx, keys: string[]): Promise<string[]> {
  const unique = [...new Set(keys)];
  const found = unique.length === 0 ? [] : await repo.findCustomerKeys(trx, unique);
  const ids = new Map<string, string>();
  for (const row of found) if (row.source_id !== null) ids.set(row.source_id, row.id);
  for (const row of found) ids.set(row.id, row.id);
  return [
    ...new Set(
      unique.map((key) => {
        const id = ids.get(key);
        if (id === undefined) throw notFound('customer', key);
        return id;
      }),
    ),
  ];
}

/** The checked columns of a new segment: a static one lists customers, a dynamic one has a filter. */
function segmentColumns(body: CreateSegmentBody): { filter: string | null; customers: string[] } {
  if (body.type === 'static') return { filter: null, customers: body.customers ?? [] };
  return { filter: checkedSegmentFilter(body.filter), customers: [] };
}

async function insertDynamic(trx: Tx, row: Omit<SegmentRow, 'seq'>, actor: Actor): Promise<SegmentRow> {
  if ((await repo.countDynamicSegments(trx)) >= MAX_DYNAMIC_SEGMENTS) {
    throw invalidPayload(`at most ${MAX_DYNAMIC_SEGMENTS} auto-update and passive segments may exist`);
  }
  const total = await repo.maxCustomerSeq(trx);
  const stored = await repo.insertSegment(trx, { ...row, initial_sync_status: total === 0 ? 'DONE' : 'IN_PROGRESS' });
  if (total > 0) {
    const payload: SegmentSyncPayload = { segment_id: stored.id };
    await enqueueJob(trx, {
      type: JobType.segmentSync,
      payload,
      total,
      requestId: actor.request_id,
      now: row.created_at,
    });
  }
  return stored;
}

/**
 * POST /v1/segments. A static segment stores its customers at once (DONE); an auto-update or
 * passive one is stored with its checked filter, and a SEGMENTS.INITIAL_SYNC job (enqueued in
 * the same transaction) adds the customers it holds for, portion by portion (IN_PROGRESS until
 * then; DONE at once when there are no customers). Customers created or updated meanwhile
 * follow it already.
 */
export async function createSegment(deps: WriteDeps, actor: Actor, body: CreateSegmentBody): Promise<SegmentObject> {
  const { filter, customers } = segmentColumns(body);
  const created_at = isoNow(deps.clock);
  const base = { id: timeOrderedId('seg_', created_at), name: body.name, type: body.type, filter, created_at };
  const row = await deps.db.transaction().execute(async (trx) => {
    if (body.type !== 'static') return insertDynamic(trx, { ...base, initial_sync_status: 'IN_PROGRESS' }, actor);
    const ids = await staticMembers(trx, customers);
    const stored = await repo.insertSegment(trx, { ...base, initial_sync_status: 'DONE' });
    await repo.insertMembers(trx, stored.id, ids);
    return stored;
  });
  if (row.initial_sync_status === 'IN_PROGRESS') notifyJobEnqueued();
  return presentSegment(row);
}

async function segmentRow(db: Db, id: string): Promise<SegmentRow> {
  const row = await repo.findSegment(db, id);
  if (!row) throw notFound('segment', id);
  return row;
}

/** 404 `segment` unless a segment has this id (an earning rule's `segment.id`). */
export const requireSegment = async (db: Db, id: string): Promise<void> => void (await segmentRow(db, id));

/** GET /v1/segments/{segmentId}. */
export const getSegment = async (deps: ReadDeps, id: string): Promise<SegmentObject> =>
  presentSegment(await segmentRow(deps.db, id));

/** DELETE /v1/segments/{segmentId}: the segment and its memberships. */
export async function deleteSegment(deps: WriteDeps, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.deleteSegment(trx, id))) throw notFound('segment', id);
  });
}

/** A customer promo does not know, as the reference evaluates one: only its source id, created now. */
const unknownCustomer = (ref: string, now: string): CustomerFacts => ({
  id: ref,
  source_id: ref,
  name: null,
  email: null,
  phone: null,
  description: null,
  birthdate: null,
  address: null,
  metadata: '{}',
  created_at: now,
  updated_at: now,
});

/**
 * GET /v1/customers/{id or source_id}/segments: the segments the customer belongs to. For a
 * customer promo does not know, the dynamic segments it would enter, as the reference answers.
 */
export async function listCustomerSegments(deps: ReadDeps, ref: string) {
  const customer = await findSimpleCustomer(deps.db, ref);
  const now = isoNow(deps.clock);
  const rows = customer
    ? await repo.listCustomerSegments(deps.db, customer.id)
    : (await repo.listDynamicSegments(deps.db)).filter((segment) =>
        holdsFor(segment, customerValues(unknownCustomer(ref, now)), new Date(now)),
      );
  const data = rows.map(presentSimpleSegment);
  return listEnvelope('data', data, { total: data.length });
}

/** The ids of the segments a customer (by id) belongs to: validation rules' `customer.segment`. */
export const customerSegmentIds = async (db: Db, customerId: string): Promise<string[]> =>
  (await repo.listCustomerSegments(db, customerId)).map((segment) => segment.id);
