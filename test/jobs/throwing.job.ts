import type { JobStep } from '../../src/jobs/job-step.js';
import type { JobRegistry } from '../../src/jobs/registry.js';
import { JobType } from '../../src/lib/enums.js';
import { jobRegistry as appRegistry } from '../../src/root/job-registry.js';
import type { GeneratePayload } from '../../src/modules/vouchers/voucher-generation.service.js';
import { generateVouchersStep } from '../../src/modules/vouchers/voucher-generation.job.js';

/**
 * A test-only step for CAMPAIGN.VOUCHERS_GENERATE: every portion throws a plain error (a
 * defect, not a JobFailure), and `finish`/`fail` are the real generation's. Tests put it in a
 * registry of their own, as root/job-registry.ts names a real step.
 */
export const throwingGenerationStep: JobStep<GeneratePayload> = {
  finish: generateVouchersStep.finish,
  fail: generateVouchersStep.fail,
  async run() {
    throw new Error('disk on fire');
  },
};

/** The app's registry with the generation's step replaced; worker threads find it at this module. */
export const jobRegistry: JobRegistry = {
  ...appRegistry,
  home: import.meta.url,
  types: {
    ...appRegistry.types,
    [JobType.vouchersGenerate]: { step: async () => throwingGenerationStep, firstPortion: 10 },
  },
};
