import type { Deps } from '../app/deps.js';
import type { Actor } from '../lib/actor.js';
import { bulkUpdateBody, codesMetadataBody, entriesOf, sourceIdsMetadataBody } from '../lib/bulk-bodies.js';
import { isoNow } from '../lib/clock.js';
import { parse } from '../lib/validate.js';
import { applyEachItem } from './item-savepoints.js';
import type { JobStep, PortionContext } from './job-step.js';
import { notifyJobEnqueued } from './jobs.events.js';
import { addJobItems, enqueueJob } from './jobs.service.js';
import { itemPortion } from './portions.service.js';

/**
 * Bulk updates (the reference's *.BULK_UPDATE and *.METADATA_UPDATE async actions): a job
 * whose items are the request's entries, each applied by its domain's own update use case in
 * a savepoint of its own, so one bad item fails alone (with the error that refused it) while
 * the others land.
 */

/** What a bulk update does to one item, in the portion's transaction: throws to refuse it. */
export type ApplyItem<P> = (ctx: PortionContext, payload: P, item: unknown) => Promise<void>;

/**
 * A bulk update's step: each portion applies the next stored items, each in its savepoint,
 * and drops them; `keyOf` names an item in the result's errors (its source_id or code). The
 * result is the counts, to which the runner adds `reports` and `errors` (failureList `errors`).
 */
export function bulkUpdateStep<P>(apply: ApplyItem<P>, keyOf: (item: unknown) => string | null): JobStep<P> {
  return {
    run: (ctx, job, maxItems) =>
      itemPortion(ctx, job, maxItems, (items) =>
        applyEachItem(ctx, items, (item) => apply(ctx, job.payload, item), keyOf),
      ),

    async finish(_ctx, job) {
      return { done_count: job.done_count, failed_count: job.failed_count };
    },
  };
}

/** What every bulk update's job carries: who asked (customer events name them). */
export interface BulkPayload {
  actor: Actor;
}

/** A *.METADATA_UPDATE job's payload: the one metadata its items (keys) each get merged in. */
export interface MetadataPayload extends BulkPayload {
  metadata: Record<string, unknown>;
}

type BulkDeps = Pick<Deps, 'db' | 'clock'>;

/** Stores the job and its items in one transaction (an accepted job is never lost), then wakes the runner. */
async function enqueueBulkUpdate(
  deps: BulkDeps,
  type: string,
  payload: BulkPayload,
  items: unknown[],
): Promise<{ async_action_id: string }> {
  const now = isoNow(deps.clock);
  const jobId = await deps.db.transaction().execute(async (trx) => {
    const id = await enqueueJob(trx, { type, payload, total: items.length, requestId: payload.actor.request_id, now });
    await addJobItems(trx, id, 0, items);
    return id;
  });
  notifyJobEnqueued();
  return { async_action_id: jobId };
}

const entriesBodies = new Map<string, ReturnType<typeof bulkUpdateBody>>();

/**
 * POST /v1/{customers,products,vouchers}/bulk/async: the body's shape is checked (400 and
 * nothing written otherwise), then a `type` job holds the entries, each checked by the job.
 */
export function enqueueBulkEntries(
  deps: BulkDeps,
  actor: Actor,
  type: string,
  many: string,
  body: unknown,
): Promise<{ async_action_id: string }> {
  let schema = entriesBodies.get(many);
  if (!schema) entriesBodies.set(many, (schema = bulkUpdateBody(many)));
  return enqueueBulkUpdate(deps, type, { actor }, entriesOf(parse(schema, body, 'body')));
}

/**
 * POST /v1/{customers,products}/metadata/async (`source_ids`) and /v1/vouchers/metadata/async
 * (`codes`): a `type` job with one item per key and the metadata in its payload.
 */
export function enqueueMetadataUpdate(
  deps: BulkDeps,
  actor: Actor,
  type: string,
  listField: 'source_ids' | 'codes',
  body: unknown,
): Promise<{ async_action_id: string }> {
  const input =
    listField === 'codes' ? parse(codesMetadataBody, body, 'body') : parse(sourceIdsMetadataBody, body, 'body');
  // No body (null or {}): the empty job the reference accepts.
  const keys = input === null || !('metadata' in input) ? [] : 'codes' in input ? input.codes : input.source_ids;
  const payload: MetadataPayload = { actor, metadata: input !== null && 'metadata' in input ? input.metadata : {} };
  return enqueueBulkUpdate(deps, type, payload, keys);
}
