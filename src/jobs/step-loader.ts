import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { StepRef } from '../app/job-registry.js';
import type { JobStep } from './job-step.js';

const require = createRequire(import.meta.url);

/**
 * The step a registry entry names, loaded in a worker thread. It goes through `require`, as
 * Piscina loads the worker itself (tsx compiles both on the fly): one module graph per thread,
 * so the step and the machinery share one JobFailure class. Node 20 does not apply tsx's
 * import hooks inside worker threads, so a dynamic import() of a .ts file fails there.
 */
export function loadStep(ref: StepRef): JobStep<unknown, unknown> {
  const module = require(fileURLToPath(ref.module)) as Record<string, unknown>;
  const step = module[ref.export] as Partial<JobStep<unknown, unknown>> | undefined;
  if (typeof step?.run !== 'function' || typeof step.finish !== 'function') {
    throw new Error(`${ref.module} has no job step ${ref.export} (an object with run and finish)`);
  }
  return step as JobStep<unknown, unknown>;
}
