import type { JobStep } from '../../jobs/job-step.js';
import { customerValues } from './segment-fields.rules.js';
import { holdsFor } from './segment-membership.service.js';
import * as repo from './segments.repository.js';
import type { SegmentSyncPayload } from './segments.service.js';

/**
 * SEGMENTS.INITIAL_SYNC: adds to a new auto-update or passive segment the customers its filter
 * holds for, portion by portion in customer seq order up to the highest seq at creation (the
 * job's total; later customers enter through their own create). No activity is written: the
 * customers did not change, the segment is new. A segment deleted meanwhile ends the job.
 */
export const syncSegmentStep: JobStep<SegmentSyncPayload> = {
  async run(ctx, job, maxItems) {
    const segment = await repo.findSegment(ctx.trx, job.payload.segment_id);
    if (!segment) return { cursor: job.total, done: 0, failed: 0, finished: true };
    const customers = await repo.listCustomersAfter(ctx.trx, job.cursor, job.total, maxItems);
    const at = new Date(ctx.now);
    const members = customers
      .filter((customer) => holdsFor(segment, customerValues(customer), at))
      .map((customer) => customer.id);
    const entered = await repo.insertMembers(ctx.trx, segment.id, members);
    const cursor = customers.length < maxItems ? job.total : (customers[customers.length - 1] as { seq: number }).seq;
    return { cursor, done: entered.length, failed: 0, finished: cursor >= job.total };
  },
  async finish(ctx, job) {
    await repo.markSynced(ctx.trx, job.payload.segment_id);
    return {
      message: `Segment ${job.payload.segment_id} synchronized: ${job.done_count} customer(s) entered.`,
      done_count: job.done_count,
    };
  },
};
