import { databaseErrorKind } from '../errors.js';

/** Runs of one transaction at most: a race lost this often in a row is answered database_busy. */
const MAX_ATTEMPTS = 5;
const BASE_BACKOFF_MS = 5;

/** Figures for /metrics: transactions re-run, and those that lost every attempt. */
export const retryStats = { retries: 0, exhausted: 0 };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the whole transaction `attempt` again when PostgreSQL undid it for losing a race
 * (40P01 deadlock, 40001 serialization failure): promo's transactions await nothing but their
 * own statements, so a re-run is the same work on newer rows. Each wait is random in a doubling
 * window, so the losers of one race do not collide again in step.
 */
export async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await attempt();
    } catch (error) {
      if (databaseErrorKind(error) !== 'retry') throw error;
      if (run >= MAX_ATTEMPTS) {
        retryStats.exhausted++;
        throw error;
      }
      retryStats.retries++;
      await pause(Math.random() * BASE_BACKOFF_MS * 2 ** run);
    }
  }
}
