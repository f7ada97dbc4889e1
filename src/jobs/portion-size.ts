import type { Neighbours } from '../db/engine.js';

/**
 * Portion sizes adapt so that each portion's transaction lasts about a target duration. An API
 * write that arrives meanwhile waits up to one portion for the write lock (a generation's portion
 * ends early for it: HAND_OFF_MS), then commits (and its durable commit flushes what the portion
 * wrote): p99 <= 50 ms beside a generation (issue 15 point 6). Each commit costs the job the pages it
 * dirtied written to the WAL again (an order import dirties ~15 pages an order, spread over the
 * file), so while nobody else writes, portions grow.
 *
 * The target follows who else writes (jobs/runner.ts looks after each portion):
 * - someone wrote since the last portion (the API's own commits, or another connection's, which
 *   the worker's `PRAGMA data_version` shows): BESIDE_WRITES_PORTION_MS at once;
 * - nobody did: it doubles each portion, from TARGET_PORTION_MS up to the runner's ceiling
 *   (QUIET_PORTION_MS for a command running its own job; TARGET_PORTION_MS in `promo serve`,
 *   whose next API write, arriving after a quiet stretch, would otherwise wait up to 400 ms);
 * - unknown (another worker thread of this process committed in between, which data_version
 *   cannot tell from an outsider): TARGET_PORTION_MS.
 */
export const TARGET_PORTION_MS = 80;
/** The target while others write beside the job. */
export const BESIDE_WRITES_PORTION_MS = 40;
/** The longest target, reached while nobody else writes. */
export const QUIET_PORTION_MS = 400;
/**
 * An API write of this process that has waited this long for the write lock ends the portion
 * in flight (steps that look: PortionContext.shouldYield), and the next portion waits (at most
 * as long again) until that write has the lock (the engine's JobConnection.portion, db/engine.ts).
 */
export const HAND_OFF_MS = 15;
export const MIN_PORTION = 10;
export const MAX_PORTION = 20_000;

/** The next portion's target duration, from the last one and who else wrote meanwhile. */
export function nextTarget(current: number, neighbours: Neighbours, ceiling = QUIET_PORTION_MS): number {
  if (neighbours === 'writing') return BESIDE_WRITES_PORTION_MS;
  if (neighbours === 'unknown') return TARGET_PORTION_MS;
  return Math.min(ceiling, Math.max(TARGET_PORTION_MS, current * 2));
}

/**
 * The next portion size, from how long the last one held the database: at most x2 or /2 a step
 * (one slow portion says little), except that a lower target than the last one's applies at once.
 */
export function nextPortionSize(
  current: number,
  items: number,
  ms: number,
  targetMs = TARGET_PORTION_MS,
  lastTargetMs = targetMs,
): number {
  if (items < current || ms <= 0) return current;
  const floor = 0.5 * Math.min(1, targetMs / lastTargetMs);
  const scaled = Math.round(current * Math.min(2, Math.max(floor, targetMs / ms)));
  return Math.min(MAX_PORTION, Math.max(MIN_PORTION, scaled));
}
