import type { Tx } from '../../db/engine.js';
import { seam, type Seams, type Subscriber } from '../../lib/seams.js';

/**
 * THE GENERATION SEAMS: fired at the end of a CAMPAIGN.VOUCHERS_GENERATE job, inside the
 * transaction that ends it, on the seams of whoever ends it (a worker, or a command that
 * cancels it): completed in its last portion (its finish), failed where it ends FAILED (its
 * step's fail: a JobFailure, a cancel, a portion that kept throwing). Webhooks' outbox
 * subscribes (campaign.vouchers.generation.completed and .failed).
 */
export interface GenerationCompleted {
  campaignId: string;
  jobId: string;
  /** Vouchers the job generated (before it failed: those stay). */
  count: number;
  at: string;
}

export const GENERATION_COMPLETED = seam<Tx, GenerationCompleted>('campaign.vouchers.generation.completed');

export const onGenerationCompleted = (seams: Seams, subscriber: Subscriber<Tx, GenerationCompleted>): (() => void) =>
  seams.subscribe(GENERATION_COMPLETED, subscriber);

export const GENERATION_FAILED = seam<Tx, GenerationCompleted>('campaign.vouchers.generation.failed');

export const onGenerationFailed = (seams: Seams, subscriber: Subscriber<Tx, GenerationCompleted>): (() => void) =>
  seams.subscribe(GENERATION_FAILED, subscriber);
