import { databaseErrorKind } from '../errors.js';

/** Runs of one transaction at most: a race lost this often in a row is answered database_busy. */
const MAX_ATTEMPTS = 5;
const BASE_BACKOFF_MS = 5;

/** Figures for /metrics: transactions re-run, and those that lost every attempt. */
export const retryStats = { retries: 0, exhausted: 0 };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Losing a race: a deadlock (40P01), a serialization failure (40001), or a unique key that a
 * concurrent transaction took between this one's look-up and its insert (23505 reaching the
 * transaction's end: a service that expects a unique refusal translates it inside). On SQLite
 * the one writer serialises the look-up and the insert; here the re-run's look-up finds the
 * winner's row (insert-or-read-winner), and a real duplicate fails the same way every time.
 */
const lostRace = (error: unknown): boolean => {
  const kind = databaseErrorKind(error);
  return kind === 'retry' || kind === 'unique';
};

/**
 * Runs the whole transaction `attempt` again when it lost a race: promo's transactions await
 * nothing but their own statements, so a re-run is the same work on newer rows. Each wait is
 * random in a doubling window, so the losers of one race do not collide again in step.
 */
export async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await attempt();
    } catch (error) {
      if (!lostRace(error)) throw error;
      if (run >= MAX_ATTEMPTS) {
        retryStats.exhausted++;
        throw error;
      }
      retryStats.retries++;
      await pause(Math.random() * BASE_BACKOFF_MS * 2 ** run);
    }
  }
}
