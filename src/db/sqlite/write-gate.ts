import { monotonicUs, sleepSync } from '../../lib/thread-wait.js';

/**
 * The write gate: worker threads of one process take turns at the database, and leave a gap
 * after each portion. SQLite has one writer; a writer that waits on busy_timeout sleeps and
 * retries (1, 2, 5, 10 ... ms), so back-to-back portions would starve the API's own writes.
 * The gap after each portion (a fraction of its duration) gives them their turn.
 *
 * State lives in a SharedArrayBuffer handed to every task: an Int32 lock word, an Int32 count
 * of writes made holding the gate (markGateWrite), a BigInt64 "not before" time in
 * microseconds of the monotonic clock (shared by all threads), and an Int32 of the WAL's frames
 * as the last checkpoint of any thread found them, and an Int32 lock word that lets one thread
 * checkpoint at a time (db/sqlite/wal-checkpoints.ts).
 */
const LOCK = 0;
const WRITES = 1;
const WAL_FRAMES = 4;
const CHECKPOINT = 5;
const STALE_LOCK_MS = 30_000;

export interface GateOptions {
  /** Idle time after a portion, as a fraction of how long it held the database. */
  gapRatio: number;
  /** The smallest gap, in milliseconds. */
  minGapMs: number;
}

export const DEFAULT_GATE: GateOptions = { gapRatio: 0.03, minGapMs: 1 };

export const createWriteGate = (): SharedArrayBuffer => new SharedArrayBuffer(24);

function acquire(lock: Int32Array, at = LOCK): void {
  const started = Date.now();
  while (Atomics.compareExchange(lock, at, 0, 1) !== 0) {
    // A thread that died holding the lock must not stop every other one forever.
    if (Date.now() - started > STALE_LOCK_MS) {
      Atomics.store(lock, at, 1);
      return;
    }
    Atomics.wait(lock, at, 1, 100);
  }
}

function release(lock: Int32Array, at = LOCK): void {
  Atomics.store(lock, at, 0);
  Atomics.notify(lock, at, 1);
}

/** Counts a write (a commit or a checkpoint) made holding the gate; answers the new count. */
export const markGateWrite = (buffer: SharedArrayBuffer): number =>
  Atomics.add(new Int32Array(buffer, 0, 2), WRITES, 1) + 1;

/** How many writes were made holding the gate so far (by every thread of this process). */
export const gateWrites = (buffer: SharedArrayBuffer): number => Atomics.load(new Int32Array(buffer, 0, 2), WRITES);

/**
 * Runs `checkpoint` while no other worker thread of the runner runs one: SQLite lets one
 * checkpoint run at a time and fails the others at once, which then learn nothing of the WAL.
 */
export function holdingCheckpointLock<T>(buffer: SharedArrayBuffer, checkpoint: () => T): T {
  const words = new Int32Array(buffer, 0, 6);
  acquire(words, CHECKPOINT);
  try {
    return checkpoint();
  } finally {
    release(words, CHECKPOINT);
  }
}

/** The WAL's frames as the last checkpoint of any worker thread found them (0 until one ran). */
export const gateWalFrames = (buffer: SharedArrayBuffer): Int32Array => new Int32Array(buffer, WAL_FRAMES * 4, 1);

/** Runs `write` holding the gate, after the previous holder's gap; returns its result and duration. */
export async function throughWriteGate<T>(
  buffer: SharedArrayBuffer,
  options: GateOptions,
  write: () => Promise<T>,
): Promise<{ value: T; ms: number }> {
  const lock = new Int32Array(buffer, 0, 1);
  const notBefore = new BigInt64Array(buffer, 8, 1);
  acquire(lock);
  try {
    sleepSync(Number(Atomics.load(notBefore, 0) - monotonicUs()) / 1000);
    const start = monotonicUs();
    const value = await write();
    const end = monotonicUs();
    const heldUs = Number(end - start);
    const gapUs = Math.max(options.minGapMs * 1000, Math.round(heldUs * options.gapRatio));
    Atomics.store(notBefore, 0, end + BigInt(gapUs));
    return { value, ms: heldUs / 1000 };
  } finally {
    release(lock);
  }
}
