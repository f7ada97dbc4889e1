import { sql, type Insertable, type Selectable } from 'kysely';
import type { PendingPointsStatus, PendingPointsTable } from './pending-points.table.js';
import type { Db } from '../../../db/engine.js';

export type PendingPointsRow = Selectable<PendingPointsTable>;
export type NewPendingPointsRow = Insertable<PendingPointsTable>;

/**
 * 'PENDING' as a literal in the SQL, not a bound parameter: SQLite uses a partial index
 * (`WHERE status = 'PENDING'`) only when the query's own term is that same constant.
 */
const PENDING = sql.lit<PendingPointsStatus>('PENDING');

export async function insertPendingPoints(db: Db, row: NewPendingPointsRow): Promise<PendingPointsRow> {
  return db.insertInto('loyalty_pending_points').values(row).returningAll().executeTakeFirstOrThrow();
}

export const findPendingPoints = (db: Db, id: string): Promise<PendingPointsRow | undefined> =>
  db.selectFrom('loyalty_pending_points').selectAll().where('id', '=', id).executeTakeFirst();

export interface PendingPageQuery {
  /** A card's list, or a program's. */
  owner: { voucherId: string } | { campaignId: string };
  direction: 'asc' | 'desc';
  /** Rows after this id in the order asked. */
  startingAfterId?: string;
  limit: number;
}

/**
 * A page of PENDING rows in id order (ids are time-ordered), read from the card's or the
 * program's partial index; one row more than asked tells whether more exist.
 */
export function listPendingPage(db: Db, q: PendingPageQuery): Promise<PendingPointsRow[]> {
  let query = db.selectFrom('loyalty_pending_points').selectAll().where('status', '=', PENDING);
  query =
    'voucherId' in q.owner
      ? query.where('voucher_id', '=', q.owner.voucherId)
      : query.where('campaign_id', '=', q.owner.campaignId);
  if (q.startingAfterId !== undefined) query = query.where('id', q.direction === 'asc' ? '>' : '<', q.startingAfterId);
  return query
    .orderBy('id', q.direction)
    .limit(q.limit + 1)
    .execute();
}

/**
 * Moves a PENDING row to its end state, once: the guarded UPDATE lets one writer (a request,
 * the sweep in any process, an order's cancel) win; undefined for everyone else.
 */
export async function claimPendingPoints(
  db: Db,
  id: string,
  status: Exclude<PendingPointsStatus, 'PENDING'>,
  at: string,
): Promise<PendingPointsRow | undefined> {
  return db
    .updateTable('loyalty_pending_points')
    .set({ status, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', PENDING)
    .returningAll()
    .executeTakeFirst();
}

/** Ids of PENDING rows due by `at`, oldest due first (loyalty_pending_points_due). */
export async function listDuePendingIds(db: Db, at: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('loyalty_pending_points')
    .select('id')
    .where('status', '=', PENDING)
    .where('activates_at', '<=', at)
    .orderBy('activates_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Ids of an order's PENDING rows (loyalty_pending_points_order). */
export async function listPendingIdsOfOrder(db: Db, orderId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('loyalty_pending_points')
    .select('id')
    .where('order_id', '=', orderId)
    .where('status', '=', PENDING)
    .execute();
  return rows.map((row) => row.id);
}
