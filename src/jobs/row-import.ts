import type { Actor } from '../lib/actor.js';
import { AppError } from '../lib/errors.js';
import { JobFailure, type ItemFailure, type JobStep, type PortionContext, type PortionJob } from './job-step.js';
import { dropJobItems, readJobItems } from './portions.service.js';

/** What a CSV import job carries: who asked (and, for a campaign's vouchers, the campaign). Its rows are stored beside it. */
export interface CsvImportPayload {
  actor: Actor;
  campaign_id?: string;
  campaign_name?: string;
}

/** The staging input of a CSV import job of `type` asked for by `actor`. */
export const csvImportJob = (type: string, actor: Actor, campaign?: { id: string; name: string }) => ({
  type,
  payload: { actor, ...(campaign ? { campaign_id: campaign.id, campaign_name: campaign.name } : {}) } satisfies CsvImportPayload,
  requestId: actor.request_id,
});

/**
 * The step of an import whose items are stored one at a time (the CSV imports): each item in a
 * savepoint of its own, so a bad one leaves nothing half-written while the good ones of the
 * portion land. A domain gives how to store one item and which field names it.
 */
export interface RowImport<P> {
  /** Singular noun of the message: "N customer(s) imported successfully, M failed." */
  noun: string;
  /** The item's key in a failure (its `source_id`, `code`), or null. */
  keyOf(item: unknown): string | null;
  /** Stores one item in the portion's transaction; an AppError below 500 fails this item only. */
  store(ctx: PortionContext, job: PortionJob<P>, item: unknown): Promise<void>;
  /** Checks made once per portion (the campaign still exists); throw JobFailure to end the job. */
  before?(ctx: PortionContext, job: PortionJob<P>): Promise<void>;
}

/** Why one item failed; anything that is not the item's own fault ends the job instead. */
function reasonOf(error: unknown): string {
  if (error instanceof AppError && error.status < 500) return error.details;
  if (String((error as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT')) return (error as Error).message;
  throw error instanceof AppError ? new JobFailure(error.details) : error;
}

/** A field of an item that is a non-empty string, else null. */
export const stringField = (item: unknown, field: string): string | null => {
  const value = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' && value !== '' ? value : null;
};

async function storeEach<P>(spec: RowImport<P>, ctx: PortionContext, job: PortionJob<P>, items: Array<{ position: number; body: string }>) {
  const failures: ItemFailure[] = [];
  for (const row of items) {
    const item: unknown = JSON.parse(row.body);
    ctx.sqlite.exec('SAVEPOINT import_row');
    try {
      await spec.store(ctx, job, item);
      ctx.sqlite.exec('RELEASE import_row');
    } catch (error) {
      ctx.sqlite.exec('ROLLBACK TO import_row; RELEASE import_row');
      failures.push({ position: row.position, key: spec.keyOf(item), reason: reasonOf(error) });
    }
  }
  return failures;
}

/** The JobStep of a RowImport: portions of stored items, processed items dropped as they go. */
export function rowImportStep<P>(spec: RowImport<P>): JobStep<P> {
  return {
    async run(ctx, job, maxItems) {
      await spec.before?.(ctx, job);
      const items = await readJobItems(ctx, job.id, job.cursor, maxItems);
      const failures = await storeEach(spec, ctx, job, items);
      const cursor = items.length > 0 ? (items.at(-1)?.position ?? 0) + 1 : job.total;
      await dropJobItems(ctx, job.id, cursor);
      return { cursor, done: items.length - failures.length, failed: failures.length, failures, finished: cursor >= job.total };
    },

    // The runner adds `failed` (the first failures, with their key and row) and the report's URL.
    async finish(_ctx, job) {
      return {
        message: `${job.done_count} ${spec.noun}(s) imported successfully, ${job.failed_count} failed.`,
        done_count: job.done_count,
        failed_count: job.failed_count,
      };
    },
  };
}
