import type { Next } from 'koa';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { DatabaseEngine } from '../../db/engine.js';
import { AppError } from '../../lib/errors.js';
import type { AppContext } from '../context.js';

const WINDOW_SECONDS = 60;

/**
 * Budgets of requests per minute, per key: a key's own (`promo keys create --rate-limit`), else
 * the server's default (PROMO_RATE_LIMIT); an OAuth token spends its key's budget. Every answer
 * under a budget carries the reference's headers; beyond it, 429 with `Retry-After`. Where the
 * engine shares budgets between servers (PostgreSQL: db/postgres/rate-limits.ts) they count
 * there, with this process's memory as the insurance while the database does not answer;
 * otherwise they live in this process (rate-limiter-flexible's memory store): two servers on
 * one SQLite file each allow the budget.
 */
export function rateLimit(defaultLimit: number | undefined, engine: Pick<DatabaseEngine, 'sharedRateLimiter'>) {
  const limiters = new Map<number, Promise<RateLimiterAbstract>>();
  const memories = new Map<number, RateLimiterMemory>();
  const limiterFor = (points: number): Promise<RateLimiterAbstract> => {
    let limiter = limiters.get(points);
    if (!limiter) {
      let memory = memories.get(points);
      if (!memory) memories.set(points, (memory = new RateLimiterMemory({ points, duration: WINDOW_SECONDS })));
      limiter = engine.sharedRateLimiter
        ? engine.sharedRateLimiter(points, WINDOW_SECONDS, memory).catch(() => {
            // Its table could not be made: this request counts in memory, the next tries again.
            limiters.delete(points);
            return memory;
          })
        : Promise.resolve(memory);
      limiters.set(points, limiter);
    }
    return limiter;
  };
  return async function limitRate(ctx: AppContext, next: Next): Promise<void> {
    const appId = ctx.state.actor?.api_key?.app_id;
    const limit = ctx.state.keyRateLimit ?? defaultLimit;
    if (appId === undefined || limit === undefined) return next();
    let spent: RateLimiterRes;
    try {
      spent = await (await limiterFor(limit)).consume(appId);
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      const seconds = Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
      answerHeaders(ctx, limit, refused);
      ctx.set('Retry-After', String(seconds));
      throw new AppError(
        'too_many_requests',
        `This key may make ${limit} requests a minute; try again in ${seconds} s`,
      );
    }
    answerHeaders(ctx, limit, spent);
    await next();
  };
}

function answerHeaders(ctx: AppContext, limit: number, state: RateLimiterRes): void {
  ctx.set('X-Rate-Limit-Limit', String(limit));
  ctx.set('X-Rate-Limit-Remaining', String(Math.max(0, state.remainingPoints)));
  ctx.set('X-Rate-Limit-Retry', String(Math.ceil((Date.now() + state.msBeforeNext) / 1000)));
  ctx.set('X-Rate-Limit-Type', 'api_calls');
}
