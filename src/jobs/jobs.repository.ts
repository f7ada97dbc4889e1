import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import type { Database } from '../db/database.js';
import type { AsyncActionTable, JobStatus, OperationStatus } from './jobs.table.js';
import type { Db } from '../db/engine.js';

export type JobRow = Selectable<AsyncActionTable>;
export type JobInsert = Insertable<AsyncActionTable>;

const OPEN: JobStatus[] = ['ENQUEUED', 'IN_PROGRESS'];

export const insertJob = async (db: Db, row: JobInsert): Promise<void> => {
  await db.insertInto('async_actions').values(row).execute();
};

export const findJob = (db: Db, id: string): Promise<JobRow | undefined> =>
  db.selectFrom('async_actions').selectAll().where('id', '=', id).executeTakeFirst();

/** Newest first, created before `endDate` when given; one more than asked, for has_more. */
export const listJobs = (
  db: Db,
  options: { limit: number; endDate?: string; openOnly?: boolean },
): Promise<JobRow[]> => {
  let query = db.selectFrom('async_actions').selectAll();
  if (options.endDate !== undefined) query = query.where('created_at', '<', options.endDate);
  if (options.openOnly) query = query.where('status', 'in', OPEN);
  return query
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(options.limit + 1)
    .execute();
};

export const listOpenJobsOfType = (db: Db, type: string) =>
  db
    .selectFrom('async_actions')
    .select(['payload', 'total', 'cursor'])
    .where('status', 'in', OPEN)
    .where('type', '=', type)
    .execute();

/**
 * The ids among `rows` of jobs still ENQUEUED behind an older open job of their type (a second
 * order import waits for the first): one indexed probe per enqueued row of a page.
 */
export async function findQueuedBehind(
  db: Db,
  rows: ReadonlyArray<Pick<JobRow, 'id' | 'type' | 'status' | 'seq'>>,
): Promise<Set<string>> {
  const behind = new Set<string>();
  for (const row of rows) {
    if (row.status !== 'ENQUEUED') continue;
    const older = await db
      .selectFrom('async_actions')
      .select('id')
      .where('type', '=', row.type)
      .where('status', 'in', OPEN)
      .where('seq', '<', row.seq)
      .limit(1)
      .executeTakeFirst();
    if (older) behind.add(row.id);
  }
  return behind;
}

/**
 * Claims the oldest open, sealed job whose lease is free or expired (or held by `staleOwner`):
 * one guarded UPDATE, so two runners never both win it. The guard stands in the UPDATE's own
 * WHERE too: on PostgreSQL (READ COMMITTED) a claimer that waited for the winner's row lock
 * re-checks only that outer WHERE, and without the guard there it would take the job over.
 * With `skipLocked` (an engine with row locks) the pick passes over a job another runner is
 * claiming at this moment and takes the next one, instead of waiting to find it taken.
 */
type ClaimFilter = { nowMs: number; only?: string[]; exclude: string[]; staleOwner?: string; skipLocked?: boolean };

/** The claimable rows, as one condition for the pick's WHERE and the UPDATE's. */
const claimGuard = (claim: ClaimFilter) => (eb: ExpressionBuilder<Database, 'async_actions'>) => {
  const conditions = [
    eb('status', 'in', OPEN),
    eb('sealed', '=', 1),
    claim.staleOwner
      ? eb('lease_owner', '=', claim.staleOwner)
      : eb.or([eb('lease_owner', 'is', null), eb('lease_expires_at', '<', claim.nowMs)]),
  ];
  if (claim.exclude.length > 0) conditions.push(eb('id', 'not in', claim.exclude));
  if (claim.only) conditions.push(eb('id', 'in', claim.only.length > 0 ? claim.only : ['']));
  return eb.and(conditions);
};

const claimable = (db: Db, claim: ClaimFilter) =>
  db.selectFrom('async_actions').select('id').where(claimGuard(claim)).orderBy('created_at').orderBy('seq').limit(1);

/** Whether a job could be claimed: a plain read, so a runner with nothing to do never waits for the write lock. */
export const findClaimable = async (db: Db, claim: ClaimFilter): Promise<boolean> =>
  (await claimable(db, claim).executeTakeFirst()) !== undefined;

export async function claimJob(
  db: Db,
  claim: ClaimFilter & { owner: string; leaseUntil: number; now: string },
): Promise<JobRow | undefined> {
  const pick = claimable(db, claim).$if(claim.skipLocked === true, (q) => q.forUpdate().skipLocked());
  return db
    .updateTable('async_actions')
    .set((eb) => ({
      lease_owner: claim.owner,
      lease_expires_at: claim.leaseUntil,
      status: 'IN_PROGRESS',
      started_at: eb.fn.coalesce('started_at', eb.val(claim.now)),
      updated_at: claim.now,
    }))
    .where('id', '=', pick)
    .where(claimGuard(claim))
    .returningAll()
    .executeTakeFirst();
}

/** Owners of open jobs whose lease is still running, to spot owners that died. */
export const listLeaseOwners = async (db: Db, nowMs: number): Promise<string[]> => {
  const rows = await db
    .selectFrom('async_actions')
    .select('lease_owner')
    .distinct()
    .where('status', 'in', OPEN)
    .where('lease_owner', 'is not', null)
    .where('lease_expires_at', '>=', nowMs)
    .execute();
  return rows.map((r) => r.lease_owner as string);
};

export const renewLeases = async (db: Db, owner: string, ids: string[], leaseUntil: number): Promise<string[]> => {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('async_actions')
    .set({ lease_expires_at: leaseUntil })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .where('status', 'in', OPEN)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
};

export const releaseLeases = async (db: Db, owner: string): Promise<void> => {
  await db
    .updateTable('async_actions')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('lease_owner', '=', owner)
    .execute();
};

/**
 * The job, if this owner holds its lease and it is running; with `lock`, its row locked until
 * the transaction ends (an engine with row locks: see runPortion).
 */
export const findLeasedJob = (db: Db, id: string, owner: string, lock: boolean): Promise<JobRow | undefined> =>
  db
    .selectFrom('async_actions')
    .selectAll()
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'IN_PROGRESS')
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();

/** Advances the cursor from exactly `fromCursor`, under this owner's lease. */
export async function advanceJob(
  db: Db,
  step: {
    id: string;
    owner: string;
    fromCursor: number;
    toCursor: number;
    done: number;
    failed: number;
    now: string;
    leaseUntil: number;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('async_actions')
    .set((eb) => ({
      cursor: step.toCursor,
      lease_expires_at: step.leaseUntil,
      done_count: eb('done_count', '+', step.done),
      failed_count: eb('failed_count', '+', step.failed),
      updated_at: step.now,
    }))
    .where('id', '=', step.id)
    .where('lease_owner', '=', step.owner)
    .where('status', '=', 'IN_PROGRESS')
    .where('cursor', '=', step.fromCursor)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function endJob(
  db: Db,
  end: {
    id: string;
    status: 'DONE' | 'FAILED';
    operationStatus: OperationStatus;
    result: string;
    now: string;
    owner?: string;
  },
): Promise<boolean> {
  let query = db
    .updateTable('async_actions')
    .set({
      status: end.status,
      operation_status: end.operationStatus,
      result: end.result,
      lease_owner: null,
      lease_expires_at: null,
      finished_at: end.now,
      updated_at: end.now,
    })
    .where('id', '=', end.id)
    .where('status', 'in', OPEN);
  if (end.owner !== undefined) query = query.where('lease_owner', '=', end.owner);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Marks an open job canceled (once: a second request keeps the first time). */
export async function markCanceled(db: Db, id: string, now: string): Promise<void> {
  await db
    .updateTable('async_actions')
    .set((eb) => ({ canceled_at: eb.fn.coalesce('canceled_at', eb.val(now)), updated_at: now }))
    .where('id', '=', id)
    .where('status', 'in', OPEN)
    .execute();
}

export interface JobFigures {
  type: string;
  status: JobStatus;
  jobs: number;
  done: number;
  failed: number;
}

/** Jobs by type and status with their items; one pass over a table of one row per job. */
export const countJobs = (db: Db): Promise<JobFigures[]> =>
  db
    .selectFrom('async_actions')
    .select((eb) => [
      'type',
      'status',
      eb.fn.countAll<number>().as('jobs'),
      eb.fn.sum<number>('done_count').as('done'),
      eb.fn.sum<number>('failed_count').as('failed'),
    ])
    .groupBy(['type', 'status'])
    .execute();
