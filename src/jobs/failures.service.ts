import type { Tx } from '../db/engine.js';
import type { Kysely } from 'kysely';
import type { Deps } from '../app/deps.js';
import type { FailureList, JobRegistry } from './registry.js';
import type { Database } from '../db/database.js';
import { errorCatalogue, notFound, type ErrorKey } from '../lib/errors.js';
import * as items from './job-items.repository.js';
import * as repo from './jobs.repository.js';

/**
 * A job's failures, item by item. An ended job's `result` lists only the first ones (an
 * import of 200,000 taken codes would otherwise answer 15 MB); the exact counts stay in
 * `done_count`/`failed_count`, and the whole list is a report streamed from its URL.
 */
export const FAILURES_IN_RESULT = 100;
const PAGE = 1000;

export const failuresUrl = (id: string): string => `/v1/async-actions/${id}/failures`;

export type FailureView = Record<string, string | number>;

/**
 * How a job type's failures are shown (the registry's fields): the item's key name, whether
 * they name a CSV row, and whether the result lists them as `failed` or as error bodies.
 */
export interface FailureKeys {
  failureKey?: string;
  failureRow?: boolean;
  failureList?: FailureList;
}

/**
 * One failure as the API shows it: the item's key under its type's name (`code`, `source_id`),
 * its CSV `row` for a CSV import (1 = the first row under the header), and why.
 */
export const presentFailure = (
  keys: FailureKeys,
  row: { position: number; key: string | null; reason: string },
): FailureView => ({
  ...(row.key === null ? {} : { [keys.failureKey ?? 'key']: row.key }),
  ...(keys.failureRow ? { row: row.position + 1 } : {}),
  reason: row.reason,
});

/**
 * One failure as a bulk update's result lists it (voucherify-facts 2.2): the body of the error
 * that refused the item (its catalogue message, its details, its key) and the item's key.
 */
export function presentFailureError(failureKey: string, row: items.FailureRow): Record<string, string> {
  const key = (row.error_key ?? 'invalid_payload') as ErrorKey;
  return {
    message: errorCatalogue[key]?.message ?? row.reason,
    details: row.reason,
    key,
    ...(row.key === null ? {} : { [failureKey]: row.key }),
  };
}

/** A page of failures as NDJSON: one JSON object per line, as the failures URL answers. */
export const failuresNdjson = (page: FailureView[]): string =>
  page.map((failure) => `${JSON.stringify(failure)}\n`).join('');

/**
 * The result a job ends with: the step's, with `failed` (its first failures) for a type whose
 * items have a key, and `reports` (the failures' URL) once anything failed. A bulk update's
 * (failureList `errors`) always has `reports`, never expiring (`reports_available_till`
 * null), and `errors`: its first failures as error bodies.
 */
export async function resultWithFailures(
  trx: Tx,
  job: { id: string; failed_count: number },
  result: Record<string, unknown>,
  keys: FailureKeys = {},
): Promise<Record<string, unknown>> {
  if (keys.failureList === 'errors') {
    const first = await items.listFailures(trx, job.id, -1, FAILURES_IN_RESULT);
    const errors = first.map((row) => presentFailureError(keys.failureKey ?? 'key', row));
    return { ...result, reports: [failuresUrl(job.id)], reports_available_till: null, errors };
  }
  const reports = job.failed_count > 0 ? { reports: [failuresUrl(job.id)] } : {};
  if (keys.failureKey === undefined) return { ...result, ...reports };
  const first = await items.listFailures(trx, job.id, -1, FAILURES_IN_RESULT);
  const { message, ...rest } = result;
  return { message, failed: first.map((row) => presentFailure(keys, row)), ...rest, ...reports };
}

/** Every failure of a job, a page at a time: each page is one short read, never the whole list. */
async function* failurePages(
  db: Kysely<Database>,
  id: string,
  keys: FailureKeys,
  pageSize: number,
): AsyncGenerator<FailureView[]> {
  let after = -1;
  for (;;) {
    const page = await items.listFailures(db, id, after, pageSize);
    if (page.length === 0) return;
    yield page.map((row) => presentFailure(keys, row));
    after = (page.at(-1) as items.FailureRow).position;
    if (page.length < pageSize) return;
  }
}

/**
 * GET /v1/async-actions/{id}/failures and `promo jobs --failures`: 404 for an unknown job
 * (before anything is streamed), else its failures in item order, page by page.
 */
export async function openJobFailures(
  deps: Pick<Deps, 'db'>,
  registry: JobRegistry,
  id: string,
  pageSize = PAGE,
): Promise<AsyncIterable<FailureView[]>> {
  const job = await repo.findJob(deps.db, id);
  if (!job) throw notFound('async_action', id);
  const entry = registry.types[job.type];
  return failurePages(deps.db, id, { failureKey: entry?.failureKey ?? 'key', failureRow: entry?.failureRow }, pageSize);
}
