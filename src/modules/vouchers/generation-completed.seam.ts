import type { Tx } from '../../db/engine.js';
import { seam, type Seams, type Subscriber } from '../../lib/seams.js';

/**
 * THE GENERATION SEAM: fired inside the last portion's transaction of a CAMPAIGN.VOUCHERS_GENERATE
 * job (its finish), on the worker's seams. Webhooks' outbox subscribes
 * (campaign.vouchers.generation.completed).
 */
export interface GenerationCompleted {
  campaignId: string;
  jobId: string;
  /** Vouchers the job generated. */
  count: number;
  at: string;
}

export const GENERATION_COMPLETED = seam<Tx, GenerationCompleted>('campaign.vouchers.generation.completed');

export const onGenerationCompleted = (seams: Seams, subscriber: Subscriber<Tx, GenerationCompleted>): (() => void) =>
  seams.subscribe(GENERATION_COMPLETED, subscriber);
