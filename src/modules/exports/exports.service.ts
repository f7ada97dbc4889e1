import type { Tx } from '../../db/engine.js';
import { createReadStream, mkdirSync, rmSync, statSync, type ReadStream } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Deps } from '../../app/deps.js';
import { jsonNames } from '../../jobs/erasure.service.js';
import { enqueueJob } from '../../jobs/jobs.service.js';
import { notifyJobEnqueued } from '../../jobs/jobs.events.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { JobType } from '../../lib/enums.js';
import { AppError, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { listEnvelope } from '../../lib/pagination.js';
import { parse } from '../../lib/validate.js';
import type { ExportPayload } from './export.job.js';
import { readExportRequest } from './export-params.rules.js';
import { EXPORT_SOURCES } from './export-sources.rules.js';
import { presentExport, type ExportView } from './exports.presenter.js';
import * as repo from './exports.repository.js';
import { createExportSchema, type ExportsListQuery } from './exports.schemas.js';

type ExportDeps = Pick<Deps, 'db' | 'clock' | 'exportsDir'>;

/** The directory of export files beside a SQLite file (`<database file>.exports/`, created on first use): Deps.exportsDir. */
export const exportsDirectory = (dbFile: string): string => resolve(`${dbFile}.exports`);

const fileOf = (exportsDir: string, id: string): string => join(exportsDir, `${id}.csv`);

/**
 * POST /v1/exports (and `promo export`): checks the parameters against the exported object,
 * then stores the export (SCHEDULED) and its EXPORT job in one transaction. The job writes
 * the rows that exist now (up to the table's highest seq, which is also the job's `total`).
 */
export async function createExport(deps: ExportDeps, body: unknown, actor: Actor, origin = ''): Promise<ExportView> {
  const { parameters, plan } = readExportRequest(parse(createExportSchema, body, 'body'));
  const source = EXPORT_SOURCES[plan.exported_object];
  const id = newId('exp_');
  const now = isoNow(deps.clock);
  mkdirSync(deps.exportsDir, { recursive: true });
  const row = await deps.db.transaction().execute(async (trx) => {
    const maxSeq = await repo.findMaxSeq(trx, source);
    const payload: ExportPayload = {
      export_id: id,
      file: fileOf(deps.exportsDir, id),
      plan,
      max_seq: maxSeq,
      requested_at: now,
    };
    // The highest seq bounds the rows to walk: the job's total, without counting them here.
    const jobId = await enqueueJob(trx, {
      type: JobType.export,
      payload,
      total: maxSeq,
      requestId: actor.request_id,
      now,
    });
    const channel = actor.channel === 'INTERNAL' ? 'CLI' : 'API';
    await repo.insertExport(trx, {
      id,
      exported_object: plan.exported_object,
      parameters: JSON.stringify(parameters),
      channel,
      status: 'SCHEDULED',
      async_action_id: jobId,
      last_key: null,
      created_at: now,
      updated_at: null,
    });
    return repo.findExport(trx, id);
  });
  notifyJobEnqueued();
  return presentExport(row!, origin);
}

async function findOrFail(deps: Pick<Deps, 'db'>, id: string) {
  const row = await repo.findExport(deps.db, id);
  if (!row) throw notFound('export', id);
  return row;
}

export const getExport = async (deps: Pick<Deps, 'db'>, id: string, origin = ''): Promise<ExportView> =>
  presentExport(await findOrFail(deps, id), origin);

/** The export's async action (its job), for the command line to follow. */
export const exportJobId = async (deps: Pick<Deps, 'db'>, id: string): Promise<string> =>
  (await findOrFail(deps, id)).async_action_id;

/** GET /v1/exports: newest first unless `order` says otherwise; `total` counts every export. */
export async function listExports(deps: Pick<Deps, 'db'>, query: ExportsListQuery, origin = '') {
  const sort = query.order ?? { field: 'created_at', direction: 'desc' };
  const rows = await repo.listExportPage(deps.db, {
    field: sort.field,
    desc: sort.direction === 'desc',
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return listEnvelope(
    'exports',
    rows.map((row) => presentExport(row, origin)),
    { total: await repo.countExports(deps.db) },
  );
}

/**
 * DELETE /v1/exports/{id}: the export and its file go. A job still writing it ends at its
 * next portion (which finds no export); the portion in flight holds the write lock, so the
 * row is gone before the file is removed and nothing writes it again.
 */
export async function deleteExport(deps: ExportDeps, id: string): Promise<void> {
  const deleted = await deps.db.transaction().execute((trx) => repo.deleteExport(trx, id));
  if (!deleted) throw notFound('export', id);
  removeExportFiles([fileOf(deps.exportsDir, id)]);
}

/** What a permanent deletion needs to find the exports that hold a customer. */
export interface ExportedCustomer {
  /** The customer's row: a customer export whose snapshot reached it holds it. */
  customerSeq: number;
  /** Their first redemption record (null: none): a redemption export that reached it holds their snapshot. */
  redemptionSeq: number | null;
  /** id, source_id, email, phone: an export whose parameters (a filter) name them. */
  identifiers: readonly string[];
}

function holdsCustomer(
  row: { exported_object: string; parameters: string; max_seq: number },
  customer: ExportedCustomer,
): boolean {
  if (row.exported_object === 'customer' && row.max_seq >= customer.customerSeq) return true;
  if (row.exported_object === 'redemption' && customer.redemptionSeq !== null && row.max_seq >= customer.redemptionSeq)
    return true;
  return jsonNames(row.parameters, customer.identifiers);
}

/**
 * Permanent deletion, in the caller's transaction: every export that holds the customer's
 * personal data goes, whatever its status, as DELETE /v1/exports/{id} would (a job still
 * writing one ends at its next portion). Held means its snapshot reached the customer's row
 * (customer exports) or one of their redemption records (customer_source_id, customer_name,
 * tracking_id): its filters are not evaluated again, so an export they excluded goes too.
 * Other exports name the customer by id only, as promo's own records still do. Returns the
 * files to remove once the transaction has committed (removeExportFiles).
 */
export async function eraseExportsOfCustomer(
  trx: Tx,
  exportsDir: string,
  customer: ExportedCustomer,
): Promise<string[]> {
  const ids = (await repo.listExportReaches(trx)).filter((row) => holdsCustomer(row, customer)).map((row) => row.id);
  for (const id of ids) await repo.deleteExport(trx, id);
  return ids.map((id) => fileOf(exportsDir, id));
}

/** Removes export files (after the transaction that deleted their exports committed). */
export const removeExportFiles = (files: readonly string[]): void =>
  files.forEach((file) => rmSync(file, { force: true }));

/** A finished export's file, to stream: 404 for an unknown export (or a file removed by hand), 409 export_not_ready before it is DONE. */
export async function openExportFile(
  deps: ExportDeps,
  id: string,
): Promise<{ stream: ReadStream; size: number; name: string }> {
  const row = await findOrFail(deps, id);
  if (row.status !== 'DONE')
    throw new AppError('export_not_ready', `Export ${id} is ${row.status}; its file is served once it is DONE`);
  const file = fileOf(deps.exportsDir, id);
  // Removed from the exports directory by hand (the row says DONE): gone, as far as a client can tell.
  const size = statSync(file, { throwIfNoEntry: false })?.size;
  if (size === undefined) throw notFound('export_file', id);
  return { stream: createReadStream(file), size, name: `${row.exported_object}-${id}.csv` };
}
