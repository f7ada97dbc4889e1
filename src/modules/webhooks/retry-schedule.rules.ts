/**
 * When a failed delivery is tried again: exponential backoff from `baseMs`, doubled after each
 * failed attempt up to `maxMs`, each wait spread by ±25% (jitter: receivers that come back are
 * not hit by every sender at once). A delivery whose next attempt would fall more than
 * `giveUpMs` after its event is marked FAILED instead, and its webhook's queue moves on.
 *
 * Defaults: 10 s, 20 s, 40 s ... 1 h, then hourly; given up after 24 h (about 30 attempts).
 * PROMO_WEBHOOK_RETRY_BASE_MS, PROMO_WEBHOOK_RETRY_MAX_MS and PROMO_WEBHOOK_GIVE_UP_MS change
 * them (tests make them milliseconds).
 */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  giveUpMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 10_000, maxMs: 3_600_000, giveUpMs: 86_400_000 };

/** The wait after the `attempts`-th failed attempt (1 = the first), for a random draw in [0, 1). */
export function retryDelayMs(attempts: number, policy: RetryPolicy, random: number): number {
  const plain = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempts - 1, 40));
  return Math.round(plain * (0.75 + 0.5 * random));
}

/** The next attempt's time after a failure, or null when the delivery is given up. */
export function nextAttemptAt(
  eventAtMs: number,
  nowMs: number,
  attempts: number,
  policy: RetryPolicy,
  random = Math.random(),
): number | null {
  const at = nowMs + retryDelayMs(attempts, policy, random);
  return at - eventAtMs > policy.giveUpMs ? null : at;
}
