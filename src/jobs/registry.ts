import type { Deps } from '../app/deps.js';
import type { JobStep } from './job-step.js';

/**
 * The shapes of what the composition root (src/root) wires into the job machinery. Each names
 * its code by a typed lazy import (`() => import('…/x.job.js').then((m) => m.xStep)`), so a
 * renamed file or export fails the type-check, and a module loads only when first needed.
 */
export type StepLoader = () => Promise<JobStep<never, unknown>>;

/** A module's subscriptions to the in-transaction seams (lib/seams.ts) of one Deps. */
export type SubscriptionLoader = () => Promise<(deps: Deps) => void>;

export interface JobTypeEntry {
  step: StepLoader;
  /** Items in the first portion; later portions adapt to the target duration. */
  firstPortion: number;
  /**
   * For jobs of items (imports): the field that names a failed item in `result.failed` and in
   * the failures report (`code` for vouchers, `source_id` for orders).
   */
  failureKey?: string;
  /**
   * How the result lists the first failures: `failed` [{<failureKey>, reason}] (imports, the
   * default), or `errors` [{message, details, key, <failureKey>}] with `reports` (bulk updates).
   */
  failureList?: FailureList;
  /** CSV imports: each failure also names its `row` (1 = the first row under the header). */
  failureRow?: boolean;
  /**
   * The worker connection's page cache while it runs this type's portions, in MiB (64 unless
   * given: bulk inserts into big random indexes, voucher codes, want it large).
   */
  cacheMb?: number;
  /**
   * A second portion may be under way while one writes (jobs/runner.ts): it prepares and
   * copies the WAL back meanwhile, then waits for the write gate; each portion still reads the
   * job's cursor in its own transaction. Generations: the WAL copy no longer adds to each portion.
   */
  overlap?: boolean;
}

export type FailureList = 'failed' | 'errors';

/**
 * The job types a runner can run. Worker threads cannot receive functions, so each one imports
 * the registry itself: `home` is the URL of the module that exports it as `jobRegistry` (its own
 * `import.meta.url`), and the thread looks the job's type up there.
 */
export interface JobRegistry {
  home: string;
  types: Readonly<Record<string, JobTypeEntry>>;
  /** The seam subscriptions a worker thread makes on its connection, as every Deps has them. */
  subscriptions: readonly SubscriptionLoader[];
}

/**
 * Periodic sweeps: work that falls due with time rather than with a request. `run` does one
 * pass over what is due at the Deps' clock, in batches, ending early once the signal is
 * aborted, and returns how many items it did.
 */
export type SweepFn = (deps: Deps, signal: AbortSignal) => Promise<number>;

export interface SweepEntry {
  name: string;
  run: () => Promise<SweepFn>;
}

export type SweepRegistry = readonly SweepEntry[];

/** Loads the subscribing modules together, then lets each subscribe on these Deps' seams in the list's order. */
export async function subscribeSeams(deps: Deps, loaders: readonly SubscriptionLoader[]): Promise<void> {
  const subscribers = await Promise.all(loaders.map((load) => load()));
  for (const subscribe of subscribers) subscribe(deps);
}
