import type { SweepRegistry } from '../jobs/registry.js';

/**
 * Periodic sweeps: work that falls due with time rather than with a request (points that
 * expire, pending points that activate). The job runner runs every sweep when it starts and
 * then every minute (jobs/sweeps.ts), one after another, never two rounds at once. A sweep
 * must be safe with several processes on one file: each claims what it does by a guarded
 * statement inside an IMMEDIATE transaction, so an item is done exactly once.
 *
 * A module registers a sweep with one line here: a typed lazy import of its function.
 */
export const sweepRegistry: SweepRegistry = [
  {
    name: 'points-expiry',
    run: () => import('../modules/ledgers/points-expiry.sweep.js').then((m) => m.expireDueBuckets),
  },
  {
    name: 'pending-points',
    run: () =>
      import('../modules/loyalty/pending-points/pending-points.sweep.js').then((m) => m.activateDuePendingPointsSweep),
  },
  {
    name: 'session-locks',
    run: () => import('../modules/sessions/index.js').then((m) => m.expireSessionLocks),
  },
  {
    name: 'idempotency-keys',
    run: () => import('../modules/idempotency/index.js').then((m) => m.expireIdempotencyKeys),
  },
  {
    name: 'webhook-retention',
    run: () => import('../modules/webhooks/retention.sweep.js').then((m) => m.sweepWebhookRetention),
  },
];
