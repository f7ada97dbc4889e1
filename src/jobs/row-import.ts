import type { Actor } from '../lib/actor.js';
import { applyEachItem } from './item-savepoints.js';
import type { JobStep, PortionContext, PortionJob } from './job-step.js';
import { itemPortion } from './portions.service.js';

/** What a CSV import job carries: who asked (and, for a campaign's vouchers, the campaign). Its rows are stored beside it. */
export interface CsvImportPayload {
  actor: Actor;
  campaign_id?: string;
  campaign_name?: string;
}

/** The staging input of a CSV import job of `type` asked for by `actor`. */
export const csvImportJob = (type: string, actor: Actor, campaign?: { id: string; name: string }) => ({
  type,
  payload: {
    actor,
    ...(campaign ? { campaign_id: campaign.id, campaign_name: campaign.name } : {}),
  } satisfies CsvImportPayload,
  requestId: actor.request_id,
});

/**
 * The step of an import whose items are stored one at a time (the CSV imports), each in a
 * savepoint of its own (item-savepoints.ts), so a bad one leaves nothing half-written while
 * the good ones of the portion land. A domain gives how to store one item and which field names it.
 */
export interface RowImport<P, C = undefined> {
  /** Singular noun of the message: "N customer(s) imported successfully, M failed." */
  noun: string;
  /** The item's key in a failure (its `source_id`, `code`), or null. Never throws. */
  keyOf(item: unknown): string | null;
  /**
   * What every item of a portion needs, read once at its start (the campaign imported into);
   * throw JobFailure to end the job (the campaign is gone).
   */
  open?(ctx: PortionContext, job: PortionJob<P>): Promise<C>;
  /** Stores one item in the portion's transaction; an AppError below 500 fails this item only. */
  store(ctx: PortionContext, job: PortionJob<P>, item: unknown, opened: C): Promise<void>;
  /** Runs after the portion's items, with how many were stored (a campaign's vouchers_count). */
  close?(ctx: PortionContext, opened: C, done: number): Promise<void>;
}

/** The JobStep of a RowImport: portions of stored items, processed items dropped as they go. */
export function rowImportStep<P, C = undefined>(spec: RowImport<P, C>): JobStep<P> {
  return {
    async run(ctx, job, maxItems) {
      const opened = (await spec.open?.(ctx, job)) as C;
      const outcome = await itemPortion(ctx, job, maxItems, (items) =>
        applyEachItem(ctx, items, (item) => spec.store(ctx, job, item, opened), spec.keyOf),
      );
      await spec.close?.(ctx, opened, outcome.done);
      return outcome;
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
