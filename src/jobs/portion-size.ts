/**
 * Portion sizes adapt so that each portion's transaction lasts about a target duration. An API
 * write that arrives meanwhile waits up to one portion for the write lock, then commits (and
 * its durable commit flushes what the portion wrote): p99 <= 50 ms beside a generation needs
 * portions well under 50 ms (issue 15 point 6). Each API commit between portions costs the job
 * about one disk flush, so while the API is not writing, portions are longer.
 */
export const TARGET_PORTION_MS = 80;
/** The target while API writes are being made beside the job (jobs/runner.ts looks). */
export const BESIDE_WRITES_PORTION_MS = 40;
export const MIN_PORTION = 10;
export const MAX_PORTION = 20_000;

/** The next portion size, from how long the last one held the database. */
export function nextPortionSize(current: number, items: number, ms: number, targetMs = TARGET_PORTION_MS): number {
  if (items < current || ms <= 0) return current;
  const scaled = Math.round(current * Math.min(2, Math.max(0.5, targetMs / ms)));
  return Math.min(MAX_PORTION, Math.max(MIN_PORTION, scaled));
}
