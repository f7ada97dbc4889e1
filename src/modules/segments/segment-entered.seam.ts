import type { Tx } from '../../db/engine.js';
import type { Actor } from '../../lib/actor.js';
import { seam, type Seams, type Subscriber } from '../../lib/seams.js';

/**
 * THE SEGMENT-ENTERED SEAM: fired inside the transaction of a customer change that made the
 * customer enter an auto-update segment, once per entry (the membership row's insert decides:
 * a writer whose insert found the row already there does not fire). Loyalty's
 * `customer.segment.entered` earning rules subscribe.
 */
export interface SegmentEntered {
  segmentId: string;
  customerId: string;
  actor: Actor;
  at: string;
}

export const SEGMENT_ENTERED = seam<Tx, SegmentEntered>('customer.segment.entered');

export const onSegmentEntered = (seams: Seams, subscriber: Subscriber<Tx, SegmentEntered>): (() => void) =>
  seams.subscribe(SEGMENT_ENTERED, subscriber);
