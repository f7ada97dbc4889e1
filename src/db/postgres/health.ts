import type pg from 'pg';
import { AppError } from '../../lib/errors.js';

/** How long GET /health waits for PostgreSQL's answer (a free connection included) before 503. */
export const HEALTH_TIMEOUT_MS = 2000;

/**
 * GET /health on PostgreSQL: `SELECT 1` through the pool, so it waits as a request would (for a
 * free connection, then the server). Slower than `timeoutMs`, or refused, answers 503
 * database_unavailable; the body says which, by the error's code only (the server's message
 * may name hosts and databases, and /health answers anyone).
 */
export async function checkPool(pool: pg.Pool, timeoutMs = HEALTH_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AppError('database_unavailable', `PostgreSQL did not answer SELECT 1 within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([pool.query('SELECT 1'), timedOut]);
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown }).code;
    throw new AppError(
      'database_unavailable',
      `PostgreSQL refused SELECT 1${typeof code === 'string' ? ` (${code})` : ''}`,
    );
  } finally {
    clearTimeout(timer);
  }
}
