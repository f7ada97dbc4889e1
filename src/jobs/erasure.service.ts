import { isDeepStrictEqual } from 'node:util';
import { insertFailures } from './job-items.repository.js';
import * as repo from './erasure.repository.js';
import type { Db, Tx } from '../db/engine.js';

/**
 * Permanent deletion in job data, inside the caller's transaction: what names a customer
 * (their `identifiers`: id, source_id, email, phone) leaves the jobs' stored items, payloads,
 * results and failure reports.
 *
 * A value names the customer when it equals an identifier, or contains one of at least
 * MIN_CONTAINED characters (a free-text reason "Customer zed@x.org ..."); a shorter
 * identifier (a source_id like `42`) must be the whole value, or every report that mentions
 * 42 would go. Names are not identifiers: a value equal to "Amy" says nothing of which Amy.
 */
export const ERASED = '[erased]';
export const ERASED_ITEM_REASON = "Erased by a customer's permanent deletion before it was processed";
export const ERASED_FAILURE_REASON = "Erased by a customer's permanent deletion";
const MIN_CONTAINED = 6;

const names = (text: string, ids: readonly string[]): boolean =>
  ids.some((id) => text === id || (id.length >= MIN_CONTAINED && text.includes(id)));

/**
 * The JSON value without the customer: an object with a string field equal to an identifier
 * is the customer's record (or one about them: an import's entry, a failure), so all of its
 * strings go; elsewhere each string that names them goes. Numbers and flags stay.
 */
export function scrubJson(value: unknown, ids: readonly string[]): unknown {
  if (typeof value === 'string') return names(value, ids) ? ERASED : value;
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, ids));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const record = entries.some(([, v]) => typeof v === 'string' && ids.includes(v));
  return Object.fromEntries(entries.map(([k, v]) => [k, record && typeof v === 'string' ? ERASED : scrubJson(v, ids)]));
}

/** The JSON text without the customer, or null when nothing in it names them. */
function scrubbed(text: string, ids: readonly string[]): string | null {
  const before: unknown = JSON.parse(text);
  const after = scrubJson(before, ids);
  return isDeepStrictEqual(before, after) ? null : JSON.stringify(after);
}

/** Whether the JSON text holds a value that names the customer. */
export const jsonNames = (text: string, identifiers: readonly string[]): boolean =>
  scrubbed(text, identifiers) !== null;

/** The identifiers as they appear inside JSON text (escaped), to find candidate rows. */
const inJsonText = (ids: readonly string[]): string[] => ids.map((id) => JSON.stringify(id).slice(1, -1));

/**
 * Where the customer's job data lay at a read before the deletion's transaction: the rows that
 * named them then, and how far the open jobs reached, so that the transaction (which holds the
 * write lock) reads only those rows and what was written since, by key, instead of searching
 * every table whole. A job that has ended never changes again; an open one only appends items
 * and failures and sets its result.
 */
export interface JobDataFound {
  ids: readonly string[];
  lastSeq: number;
  open: repo.OpenJobFrontier[];
  items: repo.Positions[];
  failures: repo.Positions[];
  jobs: string[];
}

const usable = (identifiers: readonly string[]) => identifiers.filter((id) => id !== '');

/** The whole-table searches, on the reader (no write lock): run before the deletion's transaction. */
export async function findJobDataAbout(db: Db, identifiers: readonly string[]): Promise<JobDataFound> {
  const ids = usable(identifiers);
  const texts = inJsonText(ids);
  const at = (row: { action_id: string; position: number }): repo.Positions => ({
    actionId: row.action_id,
    at: row.position,
  });
  return {
    ids,
    lastSeq: await repo.lastJobSeq(db),
    open: await repo.listOpenJobFrontiers(db),
    items: ids.length === 0 ? [] : (await repo.listItemsHolding(db, texts)).map(at),
    failures: ids.length === 0 ? [] : (await repo.listFailuresNaming(db, ids, ids)).map(at),
    jobs: ids.length === 0 ? [] : (await repo.listJobsHolding(db, texts)).map((row) => row.id),
  };
}

/** What to read inside the transaction: each row found, and each open or new job past what was seen. */
async function sinceFound(trx: Tx, found: JobDataFound) {
  const newJobs = await repo.listJobsAfter(trx, found.lastSeq);
  const after = (lastOf: (job: repo.OpenJobFrontier) => number): repo.Positions[] => [
    ...found.open.map((job) => ({ actionId: job.id, after: lastOf(job) })),
    ...newJobs.map((id) => ({ actionId: id, after: -1 })),
  ];
  return {
    items: [...found.items, ...after((job) => job.lastItem)],
    failures: [...found.failures, ...after((job) => job.lastFailure)],
    jobs: [...new Set([...found.jobs, ...found.open.map((job) => job.id), ...newJobs])],
  };
}

/** Each query's rows, once each (a range may meet a row found by key). */
async function rowsAt<T extends { action_id: string; position: number }>(
  where: repo.Positions[] | 'all',
  read: (at: repo.Positions) => Promise<T[]>,
): Promise<T[]> {
  const rows = new Map<string, T>();
  for (const at of where === 'all' ? ['all' as const] : where)
    for (const row of await read(at)) rows.set(`${row.action_id}:${row.position}`, row);
  return [...rows.values()];
}

/**
 * Stored items (an import's or bulk update's entries not yet run) that name the customer go:
 * run later, they would write the customer again. In a job still open, each counts as a
 * failed item with a neutral reason, so done + failed still adds up to the job's total.
 */
async function eraseItems(trx: Tx, ids: readonly string[], where: repo.Positions[] | 'all'): Promise<number> {
  const rows = (await rowsAt(where, (at) => repo.listItemsHolding(trx, inJsonText(ids), at))).filter((row) =>
    jsonNames(row.body, ids),
  );
  const open = rows.filter((row) => row.status === 'ENQUEUED' || row.status === 'IN_PROGRESS');
  for (const row of rows) await repo.deleteItem(trx, row.action_id, row.position);
  await insertFailures(
    trx,
    open.map((row) => ({
      action_id: row.action_id,
      position: row.position,
      key: null,
      reason: ERASED_ITEM_REASON,
      error_key: null,
    })),
  );
  const perJob = new Map<string, number>();
  for (const row of open) perJob.set(row.action_id, (perJob.get(row.action_id) ?? 0) + 1);
  for (const [id, n] of perJob) await repo.addFailedCount(trx, id, n);
  return rows.length;
}

/** Failure reports keyed by the customer, or whose reason names them: the key goes and the reason becomes a neutral one; the count stays. */
async function eraseFailures(trx: Tx, ids: readonly string[], where: repo.Positions[] | 'all'): Promise<number> {
  const rows = (await rowsAt(where, (at) => repo.listFailuresNaming(trx, ids, ids, at))).filter(
    (row) => (row.key !== null && ids.includes(row.key)) || names(row.reason, ids),
  );
  for (const row of rows)
    await repo.updateFailure(trx, row.action_id, row.position, { key: null, reason: ERASED_FAILURE_REASON });
  return rows.length;
}

/** Job payloads (an export's filter on an email) and results (their first failures) lose every value that names the customer. */
async function eraseJobFields(trx: Tx, ids: readonly string[], jobIds: string[] | undefined): Promise<number> {
  let changed = 0;
  for (const row of await repo.listJobsHolding(trx, inJsonText(ids), jobIds)) {
    const payload = scrubbed(row.payload, ids);
    const result = row.result === null ? null : scrubbed(row.result, ids);
    if (payload === null && result === null) continue;
    await repo.updateJobData(trx, row.id, { payload: payload ?? row.payload, result: result ?? row.result });
    changed += 1;
  }
  return changed;
}

/**
 * Erases the customer from every job's data, inside the deletion's transaction; how many
 * items, failures and jobs changed. With what `findJobDataAbout` found for the same
 * identifiers, only those rows and what was written since are read; without it (or when the
 * customer's identifiers changed in between), every table is searched here.
 */
export async function eraseJobDataAbout(
  trx: Tx,
  identifiers: readonly string[],
  found?: JobDataFound,
): Promise<{ items: number; failures: number; jobs: number }> {
  const ids = usable(identifiers);
  if (ids.length === 0) return { items: 0, failures: 0, jobs: 0 };
  const since = found && isDeepStrictEqual(found.ids, ids) ? await sinceFound(trx, found) : undefined;
  return {
    items: await eraseItems(trx, ids, since?.items ?? 'all'),
    failures: await eraseFailures(trx, ids, since?.failures ?? 'all'),
    jobs: await eraseJobFields(trx, ids, since?.jobs),
  };
}
