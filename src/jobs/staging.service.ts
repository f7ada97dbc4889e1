import type { Deps } from '../app/deps.js';
import { isoNow } from '../lib/clock.js';
import { AppError, invalidPayload } from '../lib/errors.js';
import { newLeaseOwner } from './lease-owner.js';
import { notifyJobEnqueued } from './jobs.events.js';
import { addJobItems, enqueueJob } from './jobs.service.js';
import * as staging from './staging.repository.js';
import { failJob } from './portions.service.js';

type StagingDeps = Pick<Deps, 'db' | 'engine' | 'clock'>;

/**
 * A job fed item by item (`promo import` streaming a file of any size): stored unsealed,
 * under a lease of its writer that a heartbeat keeps alive, so no runner claims it before it
 * is whole and a writer that dies leaves a job that ends FAILED (leases.service).
 */
export interface Staging {
  jobId: string;
  /** Appends items in a short transaction; refused once the job is no longer being filled (canceled). */
  add(items: unknown[]): Promise<void>;
  /** The job is whole: any runner may claim it. */
  seal(): Promise<void>;
  /** Ends the job FAILED with the reason (a malformed file). */
  abandon(reason: string): Promise<void>;
  /** Deletes the job and its items, as if it had never started (a refused upload). */
  discard(): Promise<void>;
}

export interface StagingInput {
  type: string;
  payload: unknown;
  requestId: string;
  /** How long the writer's lease lasts without a heartbeat (every third of it). */
  leaseMs?: number;
  /**
   * Keep the connection's page cache as it is: the API's shared connection, which other
   * requests (and other uploads, each restoring what it saw) use meanwhile.
   */
  keepCache?: boolean;
}

const DEFAULT_LEASE_MS = 30_000;
const BATCH = 1000;

const endedWhileStaging = (id: string): AppError =>
  new AppError('job_already_ended', `Async action ${id} ended before all of its items were read`);

export async function startStaging(deps: StagingDeps, input: StagingInput): Promise<Staging> {
  const owner = newLeaseOwner();
  const leaseMs = input.leaseMs ?? DEFAULT_LEASE_MS;
  const leaseUntil = () => deps.clock.now().getTime() + leaseMs;
  const jobId = await deps.db
    .transaction()
    .execute((trx) =>
      enqueueJob(trx, { ...input, total: 0, now: isoNow(deps.clock), staging: { owner, leaseUntil: leaseUntil() } }),
    );
  const beat = setInterval(
    () => void staging.holdStaging(deps.db, jobId, owner, leaseUntil()).catch(() => undefined),
    leaseMs / 3,
  );
  beat.unref();
  const restoreCache = input.keepCache ? () => undefined : deps.engine.shrinkCache();
  const end = () => {
    clearInterval(beat);
    restoreCache();
  };
  let count = 0;
  return {
    jobId,
    async add(items) {
      await deps.db.transaction().execute(async (trx) => {
        if (!(await staging.holdStaging(trx, jobId, owner, leaseUntil()))) throw endedWhileStaging(jobId);
        await addJobItems(trx, jobId, count, items);
      });
      count += items.length;
    },
    async seal() {
      end();
      if (!(await staging.sealJob(deps.db, { id: jobId, owner, total: count, now: isoNow(deps.clock) })))
        throw endedWhileStaging(jobId);
      notifyJobEnqueued();
    },
    async abandon(reason) {
      end();
      await failJob(deps, jobId, reason, undefined, owner);
    },
    async discard() {
      end();
      await deps.db.transaction().execute((trx) => staging.deleteStagedJob(trx, jobId, owner));
    },
  };
}

/**
 * Streams items into a staged job a batch at a time (memory holds one batch), then seals it.
 * Nothing to import, or a stream that breaks (a malformed file), ends the job FAILED with the
 * reason, which is thrown as an AppError. Returns how many items the job holds.
 */
export async function stageItems(
  staging: Staging,
  items: AsyncIterable<unknown>,
  what: string,
  options: { discard?: boolean } = {},
): Promise<number> {
  let count = 0;
  try {
    let batch: unknown[] = [];
    for await (const item of items) {
      batch.push(item);
      if (batch.length < BATCH) continue;
      await staging.add(batch);
      count += batch.length;
      batch = [];
    }
    await staging.add(batch);
    count += batch.length;
    if (count === 0) throw invalidPayload(`The file holds no ${what}`);
    await staging.seal();
    return count;
  } catch (error) {
    const failure =
      error instanceof AppError ? error : invalidPayload(`The items could not be read: ${(error as Error).message}`);
    await (options.discard ? staging.discard() : staging.abandon(failure.details));
    throw failure;
  }
}

/**
 * An upload (POST .../importCSV): its items go to a new staged job as they stream in, and the
 * job's id is answered once it is sealed. A stream that breaks or holds nothing discards the
 * job, so a refused request leaves the database as it was.
 */
export async function stageUpload(
  deps: StagingDeps,
  input: StagingInput,
  items: AsyncIterable<unknown>,
  what: string,
): Promise<{ async_action_id: string }> {
  const staging = await startStaging(deps, { ...input, keepCache: true });
  await stageItems(staging, items, what, { discard: true });
  return { async_action_id: staging.jobId };
}
