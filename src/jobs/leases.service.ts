import type { Deps } from '../app/deps.js';
import { isoNow } from '../lib/clock.js';
import * as repo from './jobs.repository.js';
import * as staging from './staging.repository.js';

type LeaseDeps = Pick<Deps, 'db' | 'clock'>;

export interface ClaimOptions {
  owner: string;
  leaseMs: number;
  /** Claim only these jobs (a command line running its own job). */
  only?: string[];
  /** Jobs this runner already holds. */
  exclude: string[];
  /** Whether a lease owner is known to be dead (a crashed process on this host). */
  isOwnerDead: (owner: string) => boolean;
}

export interface ClaimedJob {
  id: string;
  type: string;
}

/**
 * Claims the oldest open job that nobody holds: a free or expired lease, or one held by an
 * owner that died; where the engine has row locks, passing over one another runner is claiming
 * at this moment (several servers share the jobs). Returns undefined when there is none. It looks before it writes: the API's
 * thread must not wait for the write lock (held by a worker's portion) just to find nothing.
 */
export async function claimJob(
  deps: LeaseDeps & Pick<Deps, 'engine'>,
  options: ClaimOptions,
): Promise<ClaimedJob | undefined> {
  const nowMs = deps.clock.now().getTime();
  const base = {
    skipLocked: deps.engine.rowLocks,
    owner: options.owner,
    nowMs,
    leaseUntil: nowMs + options.leaseMs,
    now: isoNow(deps.clock),
    only: options.only,
    exclude: options.exclude,
  };
  if (await repo.findClaimable(deps.db, base)) {
    const claimed = await deps.db.transaction().execute((trx) => repo.claimJob(trx, base));
    if (claimed) return { id: claimed.id, type: claimed.type };
  }
  const dead = (await repo.listLeaseOwners(deps.db, nowMs)).filter(
    (o) => o !== options.owner && options.isOwnerDead(o),
  );
  for (const staleOwner of dead) {
    const taken = await deps.db.transaction().execute((trx) => repo.claimJob(trx, { ...base, staleOwner }));
    if (taken) return { id: taken.id, type: taken.type };
  }
  return undefined;
}

/** Extends this owner's leases; returns the ids it still holds. */
export async function renewLeases(deps: LeaseDeps, owner: string, ids: string[], leaseMs: number): Promise<string[]> {
  return repo.renewLeases(deps.db, owner, ids, deps.clock.now().getTime() + leaseMs);
}

/** Lets go of every job this owner holds, so another runner can take them over at once. */
export async function releaseLeases(deps: Pick<Deps, 'db'>, owner: string): Promise<void> {
  await repo.releaseLeases(deps.db, owner);
}

/**
 * Imports whose writer died while still reading its file never become whole: they end
 * FAILED. Returns how many.
 */
export async function failAbandonedStaging(deps: LeaseDeps, isOwnerDead: (owner: string) => boolean): Promise<number> {
  const nowMs = deps.clock.now().getTime();
  const now = isoNow(deps.clock);
  let failed = 0;
  for (const job of await staging.listUnsealed(deps.db)) {
    const abandoned = job.lease_owner === null || (job.lease_expires_at ?? 0) < nowMs || isOwnerDead(job.lease_owner);
    if (!abandoned) continue;
    const result = JSON.stringify({
      message: 'The import was interrupted before all of its items were read.',
      done_count: 0,
    });
    if (await repo.endJob(deps.db, { id: job.id, status: 'FAILED', operationStatus: 'FAILED', result, now })) failed++;
  }
  return failed;
}
