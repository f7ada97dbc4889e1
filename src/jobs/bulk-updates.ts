import type { Deps } from '../app/deps.js';
import { isoNow } from '../lib/clock.js';
import { AppError } from '../lib/errors.js';
import { JobFailure, type ItemFailure, type JobStep, type PortionContext } from './job-step.js';
import { notifyJobEnqueued } from './jobs.events.js';
import { addJobItems, enqueueJob } from './jobs.service.js';
import { dropJobItems, readJobItems } from './portions.service.js';

/**
 * Bulk updates (the reference's *.BULK_UPDATE and *.METADATA_UPDATE async actions): a job
 * whose items are the request's entries, each applied by its domain's own update use case in
 * a savepoint of its own, so one bad item fails alone (with the error that refused it) while
 * the others land.
 */

/** What a bulk update does to one item, in the portion's transaction: throws to refuse it. */
export type ApplyItem<P> = (ctx: PortionContext, payload: P, item: unknown) => Promise<void>;

/** Why an item failed: the refusal of a client error; anything else ends the job instead. */
function refusalOf(error: unknown): Pick<ItemFailure, 'reason' | 'error_key'> {
  if (error instanceof AppError && error.status < 500) return { reason: error.details, error_key: error.key };
  if (String((error as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT')) return { reason: (error as Error).message, error_key: 'invalid_payload' };
  throw error instanceof AppError ? new JobFailure(error.details) : error;
}

/**
 * A bulk update's step: each portion applies the next stored items, each in its savepoint,
 * and drops them; `keyOf` names an item in the result's errors (its source_id or code). The
 * result is the counts, to which the runner adds `reports` and `errors` (failureList `errors`).
 */
export function bulkUpdateStep<P>(apply: ApplyItem<P>, keyOf: (item: unknown) => string | null): JobStep<P> {
  return {
    async run(ctx, job, maxItems) {
      const items = await readJobItems(ctx, job.id, job.cursor, maxItems);
      const failures: ItemFailure[] = [];
      for (const stored of items) {
        const item: unknown = JSON.parse(stored.body);
        ctx.sqlite.exec('SAVEPOINT bulk_item');
        try {
          await apply(ctx, job.payload, item);
          ctx.sqlite.exec('RELEASE bulk_item');
        } catch (error) {
          ctx.sqlite.exec('ROLLBACK TO bulk_item; RELEASE bulk_item');
          failures.push({ position: stored.position, key: keyOf(item), ...refusalOf(error) });
        }
      }
      const cursor = items.length > 0 ? (items.at(-1)?.position ?? 0) + 1 : job.total;
      await dropJobItems(ctx, job.id, cursor);
      return { cursor, done: items.length - failures.length, failed: failures.length, failures, finished: cursor >= job.total };
    },

    async finish(_ctx, job) {
      return { done_count: job.done_count, failed_count: job.failed_count };
    },
  };
}

/** An item's string field (`source_id`, `code`) to name it by, or null. */
export const fieldOf = (field: string) => (item: unknown): string | null => {
  if (typeof item === 'string') return item;
  const value = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value : null;
};

export interface BulkUpdateInput {
  type: string;
  payload: unknown;
  items: unknown[];
  requestId: string;
}

/**
 * Stores a bulk update's job and its items in one transaction (an accepted job is never lost)
 * and answers its id, as POST /v1/<objects>/bulk/async and /metadata/async do.
 */
export async function enqueueBulkUpdate(deps: Pick<Deps, 'db' | 'clock'>, input: BulkUpdateInput): Promise<{ async_action_id: string }> {
  const now = isoNow(deps.clock);
  const jobId = await deps.db.transaction().execute(async (trx) => {
    const id = await enqueueJob(trx, { type: input.type, payload: input.payload, total: input.items.length, requestId: input.requestId, now });
    await addJobItems(trx, id, 0, input.items);
    return id;
  });
  notifyJobEnqueued();
  return { async_action_id: jobId };
}
