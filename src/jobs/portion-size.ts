/**
 * Portion sizes adapt so that each portion's transaction lasts about this long: an API write
 * that arrives meanwhile waits that long at most (issue 15 point 6: p99 <= 50 ms beside a
 * generation, so portions well under 50 ms: the API waits at most one, plus its own commit).
 */
export const TARGET_PORTION_MS = 30;
export const MIN_PORTION = 10;
export const MAX_PORTION = 20_000;

/** The next portion size, from how long the last one held the database. */
export function nextPortionSize(current: number, items: number, ms: number): number {
  if (items < current || ms <= 0) return current;
  const scaled = Math.round(current * Math.min(2, Math.max(0.5, TARGET_PORTION_MS / ms)));
  return Math.min(MAX_PORTION, Math.max(MIN_PORTION, scaled));
}
