import type { JobStep } from '../../src/jobs/job-step.js';
import type { GeneratePayload } from '../../src/modules/vouchers/voucher-generation.service.js';
import { generateVouchersStep } from '../../src/modules/vouchers/voucher-generation.job.js';

/**
 * A test-only step for CAMPAIGN.VOUCHERS_GENERATE: every portion throws a plain error (a
 * defect, not a JobFailure), and `finish`/`fail` are the real generation's. Tests put it in a
 * registry of their own, as app/job-registry.ts would name a real step.
 */
export const throwingGenerationStep: JobStep<GeneratePayload> = {
  finish: generateVouchersStep.finish,
  fail: generateVouchersStep.fail,
  async run() {
    throw new Error('disk on fire');
  },
};
