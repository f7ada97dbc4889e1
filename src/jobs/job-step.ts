import type { DatabaseEngine, Tx } from '../db/engine.js';
import type { Seams } from '../lib/seams.js';

/**
 * What a job type implements to plug into the runner: `run` does one portion of the work
 * inside the transaction that also advances the job's cursor; `finish` ends the domain work
 * (in the last portion's transaction) and builds the job's `result`; `fail` (optional) cleans
 * up when the job fails. Order import adds one.
 */
export interface PortionContext {
  trx: Tx;
  /** The engine the transaction runs on: per-item savepoints, bulk statements prepared once. */
  engine: DatabaseEngine;
  now: string;
  /**
   * True once another writer of this process has waited long enough for the write lock
   * (the engine's JobConnection.portion, db/engine.ts): a step that works item by item may end its portion there, with the
   * items done so far, to let it in. Absent outside the job runner.
   */
  shouldYield?: () => boolean;
  /**
   * True when the portion runs again after its step threw RedoPortion: a step that stores its
   * items without a savepoint each stores each one in a savepoint of its own this time.
   */
  itemSavepoints?: boolean;
  /**
   * The worker's in-transaction extension points, with the same subscriptions as the API's
   * (root/subscriptions.ts): a step that upserts customers passes them on, so segment
   * memberships follow. Absent where no subscriptions are loaded.
   */
  seams?: Seams;
}

export interface PortionJob<P> {
  id: string;
  type: string;
  payload: P;
  total: number;
  cursor: number;
  done_count: number;
  failed_count: number;
}

export interface ItemFailure {
  position: number;
  key: string | null;
  reason: string;
  /** The catalogue key of the error that refused the item, for results that list error bodies. */
  error_key?: string;
}

export interface PortionOutcome {
  /** The new cursor (items read, codes generated, last seq...); progress is cursor / total. */
  cursor: number;
  done: number;
  failed: number;
  failures?: ItemFailure[];
  finished: boolean;
}

export interface JobStep<P, R = unknown> {
  /**
   * Optional pure work for the next portion, done before the write lock is taken (codes to
   * try, for a generation), so the transaction holds the lock only to write.
   */
  prepare?(job: PortionJob<P>, maxItems: number): R;
  run(ctx: PortionContext, job: PortionJob<P>, maxItems: number, prepared?: R): Promise<PortionOutcome>;
  finish(ctx: PortionContext, job: PortionJob<P>): Promise<Record<string, unknown>>;
  fail?(ctx: PortionContext, job: PortionJob<P>, reason: string): Promise<void>;
}

/**
 * Thrown by a step that stored its items without a savepoint each when one of them failed:
 * the portion's whole transaction rolls back (no savepoint: the transaction's own rollback)
 * and the portion runs once more, in a new transaction, with `itemSavepoints` set.
 */
export class RedoPortion extends Error {
  override name = 'RedoPortion';
}

/** Thrown by a step when the job cannot go on: the portion rolls back and the job ends FAILED. */
export class JobFailure extends Error {
  override name = 'JobFailure';
}
