/**
 * Time as threads that share memory see it: a blocking sleep (polling SQLite's write lock, a
 * worker's gap between portions) and the monotonic clock, which is the same in every thread of
 * the process, so one thread can store a time that another reads.
 */
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` milliseconds (nothing for 0 or less). */
export function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(sleeper, 0, 0, ms);
}

/** Microseconds of the monotonic clock. */
export const monotonicUs = (): bigint => process.hrtime.bigint() / 1000n;
