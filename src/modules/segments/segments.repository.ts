import type { SegmentRow } from './segments.presenter.js';
import type { CustomerFacts } from './segment-fields.rules.js';
import type { Db } from '../../db/engine.js';

export const insertSegment = (db: Db, row: Omit<SegmentRow, 'seq'>): Promise<SegmentRow> =>
  db.insertInto('segments').values(row).returningAll().executeTakeFirstOrThrow();

export const findSegment = (db: Db, id: string): Promise<SegmentRow | undefined> =>
  db.selectFrom('segments').selectAll().where('id', '=', id).executeTakeFirst();

/** Deletes the segment; its members go with it (ON DELETE CASCADE). */
export const deleteSegment = async (db: Db, id: string): Promise<boolean> =>
  (await db.deleteFrom('segments').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n;

/** Every auto-update and passive segment (on the partial index segments_dynamic). */
export const listDynamicSegments = (db: Db): Promise<SegmentRow[]> =>
  db.selectFrom('segments').selectAll().where('type', '<>', 'static').orderBy('seq').execute();

export const countDynamicSegments = async (db: Db): Promise<number> =>
  (
    await db
      .selectFrom('segments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '<>', 'static')
      .executeTakeFirstOrThrow()
  ).n;

export const markSynced = async (db: Db, id: string): Promise<void> => {
  await db.updateTable('segments').set({ initial_sync_status: 'DONE' }).where('id', '=', id).execute();
};

/** The segments a customer belongs to, in the order they were created. */
export const listCustomerSegments = (
  db: Db,
  customerId: string,
): Promise<Array<Pick<SegmentRow, 'id' | 'name' | 'type'>>> =>
  db
    .selectFrom('segment_members')
    .innerJoin('segments', 'segments.id', 'segment_members.segment_id')
    .select(['segments.id', 'segments.name', 'segments.type'])
    .where('segment_members.customer_id', '=', customerId)
    .orderBy('segments.seq')
    .execute();

/** Adds these customers (by id) as members, with their list keys; those already in stay. Returns the ids that entered now. */
export async function insertMembers(db: Db, segmentId: string, customerIds: string[]): Promise<string[]> {
  const entered: string[] = [];
  for (let i = 0; i < customerIds.length; i += 500) {
    const ids = customerIds.slice(i, i + 500);
    const rows = db
      .selectFrom('customers')
      .select((eb) => [eb.val(segmentId).as('segment_id'), 'id', 'seq', 'created_at', 'updated_at', 'source_id'])
      .where('id', 'in', ids);
    const added = await db
      .insertInto('segment_members')
      .columns(['segment_id', 'customer_id', 'customer_seq', 'created_at', 'updated_at', 'source_id'])
      .expression(rows)
      .onConflict((oc) => oc.doNothing())
      .returning('customer_id')
      .execute();
    entered.push(...added.map((r) => r.customer_id));
  }
  return entered;
}

/** Removes one member; true when it was one. */
export const deleteMember = async (db: Db, segmentId: string, customerId: string): Promise<boolean> =>
  (
    await db
      .deleteFrom('segment_members')
      .where('segment_id', '=', segmentId)
      .where('customer_id', '=', customerId)
      .executeTakeFirst()
  ).numDeletedRows > 0n;

/** The customers these keys name (ids or source ids): an id match wins over a source_id match. */
export const findCustomerKeys = (db: Db, keys: string[]): Promise<Array<{ id: string; source_id: string | null }>> =>
  db
    .selectFrom('customers')
    .select(['id', 'source_id'])
    .where((eb) => eb.or([eb('id', 'in', keys), eb('source_id', 'in', keys)]))
    .execute();

const FACT_COLUMNS = [
  'seq',
  'id',
  'source_id',
  'name',
  'email',
  'phone',
  'description',
  'birthdate',
  'address',
  'metadata',
  'created_at',
  'updated_at',
] as const;

/** Customers with seq in (after, upTo], at most `take`, in seq order (an initial sync's portion). */
export const listCustomersAfter = (
  db: Db,
  after: number,
  upTo: number,
  take: number,
): Promise<Array<CustomerFacts & { seq: number }>> =>
  db
    .selectFrom('customers')
    .select(FACT_COLUMNS)
    .where('seq', '>', after)
    .where('seq', '<=', upTo)
    .orderBy('seq')
    .limit(take)
    .execute();

export const maxCustomerSeq = async (db: Db): Promise<number> =>
  (
    await db
      .selectFrom('customers')
      .select((eb) => eb.fn.max<number | null>('seq').as('m'))
      .executeTakeFirstOrThrow()
  ).m ?? 0;
