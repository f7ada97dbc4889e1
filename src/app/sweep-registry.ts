import { domainStep, type StepRef } from './job-registry.js';

/**
 * Periodic sweeps: work that falls due with time rather than with a request (points that
 * expire, pending points that activate). The job runner runs every sweep when it starts and
 * then every minute (src/jobs/sweeps.ts), one after another, never two rounds at once. A
 * sweep must be safe with several processes on one file: each claims what it does by a
 * guarded statement inside an IMMEDIATE transaction, so an item is done exactly once.
 *
 * A module registers a sweep with one line here: the module and its export, a function
 * `(deps: Deps, signal: AbortSignal) => Promise<number>` (one pass over what is due at the Deps'
 * clock, in batches, ending early once the signal is aborted; returns how many items it did).
 * By URL, as job steps are, so app/ imports no domain module.
 */
export interface SweepEntry {
  name: string;
  run: StepRef;
}

export type SweepRegistry = readonly SweepEntry[];

export const sweepRegistry: SweepRegistry = [
  { name: 'points-expiry', run: domainStep('ledgers/points-expiry.sweep.ts', 'expireDueBuckets') },
  { name: 'pending-points', run: domainStep('loyalty/pending-points.sweep.ts', 'activateDuePendingPointsSweep') },
  { name: 'session-locks', run: domainStep('sessions/session-locks.service.ts', 'expireSessionLocks') },
  { name: 'idempotency-keys', run: domainStep('idempotency/idempotency.service.ts', 'expireIdempotencyKeys') },
];
