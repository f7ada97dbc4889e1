import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Deps } from '../app/deps.js';
import type { StepRef } from '../app/job-registry.js';
import { subscriptionModules } from '../app/subscriptions.js';
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

/**
 * The API's seam subscriptions (app/subscriptions.ts), made on a worker thread's Deps: each
 * subscribing module loaded through `require`, as the steps are (loadSubscriptions' import()
 * fails in a worker thread).
 */
export function subscribeInWorker(deps: Deps): void {
  for (const ref of subscriptionModules) {
    const subscribe = (require(fileURLToPath(ref.module)) as Record<string, unknown>)[ref.export];
    if (typeof subscribe !== 'function') throw new Error(`${ref.module} exports no function ${ref.export}`);
    (subscribe as (deps: Deps) => void)(deps);
  }
}
