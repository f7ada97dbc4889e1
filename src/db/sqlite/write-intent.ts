import { monotonicUs } from '../../lib/thread-wait.js';

/**
 * A writer's wish for the write lock, shared with the job worker threads of its process (issue
 * 15 point 6). SQLite has one writer and no queue: a writer that finds the lock taken can only
 * try again, and a bulk portion that ends is followed at once by the next one. So the API's
 * writer announces here that it waits (db/sqlite/connect.ts beginImmediate), and the workers look:
 * a portion in flight ends early once the wait has lasted `handOffMs` (jobs/worker.ts), and
 * the next portion does not begin before the API's write has the lock. Writers of other
 * processes cannot see it; they fall back on polling (busy_timeout).
 *
 * State: an Int32 flag (1 while a write waits: Atomics.wait/notify) and a BigInt64 time since
 * when it waits, in microseconds of the monotonic clock (the same in every thread).
 */
const FLAG = 0;

export const createWriteIntent = (): SharedArrayBuffer => new SharedArrayBuffer(16);

const flagOf = (buffer: SharedArrayBuffer) => new Int32Array(buffer, 0, 1);
const sinceOf = (buffer: SharedArrayBuffer) => new BigInt64Array(buffer, 8, 1);

/** The writer found the lock taken: from now on, it waits. */
export function announceWait(buffer: SharedArrayBuffer): void {
  Atomics.store(sinceOf(buffer), 0, monotonicUs());
  Atomics.store(flagOf(buffer), FLAG, 1);
}

/** The writer has the lock (or gave up): nobody waits any more. */
export function endWait(buffer: SharedArrayBuffer): void {
  Atomics.store(flagOf(buffer), FLAG, 0);
  Atomics.notify(flagOf(buffer), FLAG);
}

/** How long a write has been waiting, in milliseconds; -1 when none waits. */
export function waitingMs(buffer: SharedArrayBuffer): number {
  if (Atomics.load(flagOf(buffer), FLAG) === 0) return -1;
  return Number(monotonicUs() - Atomics.load(sinceOf(buffer), 0)) / 1000;
}

/** Blocks this (worker) thread while a write waits for the lock, at most `maxMs`. */
export function letWaitingWriteFirst(buffer: SharedArrayBuffer, maxMs: number): void {
  const deadline = performance.now() + maxMs;
  for (let left = maxMs; left > 0 && Atomics.load(flagOf(buffer), FLAG) === 1; left = deadline - performance.now()) {
    Atomics.wait(flagOf(buffer), FLAG, 1, left);
  }
}
