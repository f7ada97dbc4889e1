import type { JobRow } from './jobs.repository.js';

/** The async action as the API answers it (voucherify-facts 2.2). */
export interface AsyncActionView {
  id: string;
  type: string;
  status: JobRow['status'];
  operation_status?: NonNullable<JobRow['operation_status']>;
  created_at: string;
  updated_at: string;
  request_id: string | null;
  processing_time: number;
  progress: number;
  object: 'async_action';
  result?: Record<string, unknown>;
}

/** What `promo jobs` shows beyond the API's fields. */
export interface JobView extends AsyncActionView {
  total: number;
  done_count: number;
  failed_count: number;
  started_at: string | null;
  finished_at: string | null;
}

const isEnded = (row: JobRow): boolean => row.status === 'DONE' || row.status === 'FAILED';

export function progressOf(row: JobRow): number {
  if (isEnded(row) && row.status === 'DONE') return 100;
  if (row.total <= 0) return 0;
  return Math.min(100, Math.floor((row.cursor * 100) / row.total));
}

/** Milliseconds from the start of processing to its end (or to now while it runs). */
export function processingTime(row: JobRow, nowMs: number): number {
  if (row.started_at === null) return 0;
  const end = row.finished_at === null ? nowMs : Date.parse(row.finished_at);
  return Math.max(0, end - Date.parse(row.started_at));
}

/**
 * The status a client polls: an accepted job reads IN_PROGRESS from its first poll (clients
 * loop `while (status === 'IN_PROGRESS')`), ENQUEUED only while it waits behind another job
 * (`queuedBehind`), as the reference queues a second order import behind the first.
 */
const statusOf = (row: JobRow, queuedBehind: boolean): JobRow['status'] =>
  row.status === 'ENQUEUED' && !queuedBehind ? 'IN_PROGRESS' : row.status;

export function presentAsyncAction(
  row: JobRow,
  nowMs: number,
  withResult: boolean,
  queuedBehind: boolean,
): AsyncActionView {
  return {
    id: row.id,
    type: row.type,
    status: statusOf(row, queuedBehind),
    ...(row.operation_status !== null ? { operation_status: row.operation_status } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    request_id: row.request_id,
    processing_time: processingTime(row, nowMs),
    progress: progressOf(row),
    object: 'async_action',
    ...(withResult && row.result !== null ? { result: JSON.parse(row.result) as Record<string, unknown> } : {}),
  };
}

/** `promo jobs` shows the runner's own status: an operator sees a job nobody has claimed yet as ENQUEUED. */
export const presentJobView = (row: JobRow, nowMs: number): JobView => ({
  ...presentAsyncAction(row, nowMs, true, true),
  total: row.total,
  done_count: row.done_count,
  failed_count: row.failed_count,
  started_at: row.started_at,
  finished_at: row.finished_at,
});
