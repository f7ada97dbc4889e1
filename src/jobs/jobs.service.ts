import type { Tx } from '../db/engine.js';
import type { Deps } from '../app/deps.js';
import { notFound } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import { listEnvelope } from '../lib/pagination.js';
import { presentAsyncAction, presentJobView, type AsyncActionView, type JobView } from './jobs.presenter.js';
import * as itemsRepo from './job-items.repository.js';
import * as repo from './jobs.repository.js';
import type { JobFigures } from './jobs.repository.js';

type ReadDeps = Pick<Deps, 'db' | 'clock'>;

export interface EnqueueInput {
  type: string;
  payload: unknown;
  /** Units of work, for `progress`. */
  total: number;
  requestId: string;
  now: string;
  /** An import still streaming its items in: unsealed, held by `owner` until sealed. */
  staging?: { owner: string; leaseUntil: number };
}

/**
 * Stores an async action in the caller's transaction, so the job exists exactly when the
 * caller's other writes do. Call `notifyJobEnqueued()` after the transaction commits.
 */
export async function enqueueJob(trx: Tx, input: EnqueueInput): Promise<string> {
  const id = newId('aa_');
  await repo.insertJob(trx, {
    id,
    type: input.type,
    status: 'ENQUEUED',
    operation_status: null,
    request_id: input.requestId,
    payload: JSON.stringify(input.payload),
    total: input.total,
    cursor: 0,
    done_count: 0,
    failed_count: 0,
    result: null,
    sealed: input.staging ? 0 : 1,
    lease_owner: input.staging?.owner ?? null,
    lease_expires_at: input.staging?.leaseUntil ?? null,
    created_at: input.now,
    updated_at: input.now,
    started_at: null,
    finished_at: null,
  });
  return id;
}

/** Stores items of a job in its caller's transaction (positions from `from`). */
export async function addJobItems(trx: Tx, id: string, from: number, items: unknown[]): Promise<void> {
  const rows = items.map((item, i) => ({ action_id: id, position: from + i, body: JSON.stringify(item) }));
  for (let i = 0; i < rows.length; i += 500) await itemsRepo.insertItems(trx, rows.slice(i, i + 500));
}

/** Open jobs of a type with what they still have to do (code reservations of generations). */
export async function listOpenJobs<P>(trx: Tx, type: string): Promise<Array<{ payload: P; remaining: number }>> {
  const rows = await repo.listOpenJobsOfType(trx, type);
  return rows.map((row) => ({ payload: JSON.parse(row.payload) as P, remaining: Math.max(0, row.total - row.cursor) }));
}

export async function getAsyncAction(deps: ReadDeps, id: string): Promise<AsyncActionView> {
  const row = await repo.findJob(deps.db, id);
  if (!row) throw notFound('async_action', id);
  const behind = await repo.findQueuedBehind(deps.db, [row]);
  return presentAsyncAction(row, deps.clock.now().getTime(), true, behind.has(row.id));
}

/** GET /v1/async-actions: newest first, without `result`, with `has_more`. */
export async function listAsyncActions(deps: ReadDeps, query: { limit: number; endDate?: string }) {
  const rows = await repo.listJobs(deps.db, query);
  const nowMs = deps.clock.now().getTime();
  const shown = rows.slice(0, query.limit);
  const behind = await repo.findQueuedBehind(deps.db, shown);
  const page = shown.map((row) => presentAsyncAction(row, nowMs, false, behind.has(row.id)));
  return listEnvelope('async_actions', page, { has_more: rows.length > query.limit });
}

/** The jobs as `promo jobs` shows them: with counts and results. */
export async function listJobViews(deps: ReadDeps, query: { limit: number }): Promise<JobView[]> {
  const rows = await repo.listJobs(deps.db, query);
  const nowMs = deps.clock.now().getTime();
  return rows.slice(0, query.limit).map((row) => presentJobView(row, nowMs));
}

export async function getJobView(deps: ReadDeps, id: string): Promise<JobView> {
  const row = await repo.findJob(deps.db, id);
  if (!row) throw notFound('async_action', id);
  return presentJobView(row, deps.clock.now().getTime());
}

export type { JobFigures };

/** Jobs by type and status, with the items they did and failed: for /metrics. */
export const jobFigures = (deps: Pick<Deps, 'db'>): Promise<repo.JobFigures[]> => repo.countJobs(deps.db);
