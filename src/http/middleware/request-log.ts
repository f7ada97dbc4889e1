import type { Next } from 'koa';
import type { Logger } from '../../app/logger.js';
import type { Metrics } from '../metrics.js';
import { type AppContext, matchedRoute } from '../context.js';

/**
 * One log line and one metrics observation per request, after the error renderer has set the
 * final status: request id, method, route pattern (never the raw path or query, which may
 * carry codes), status, duration, the key that made the request (never its secret) and, for a
 * refused request, the error key it was answered with, so the log says why without the body.
 */
export function requestLog(log: Logger, metrics: Metrics) {
  return async function logRequest(ctx: AppContext, next: Next): Promise<void> {
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      const route = matchedRoute(ctx);
      log.info('request', {
        req_id: ctx.state.requestId,
        method: ctx.method,
        route,
        status: ctx.status,
        ms: Math.round(ms * 100) / 100,
        app_id: ctx.state.actor?.api_key?.app_id,
        error: ctx.state.errorKey,
      });
      metrics.observeRequest({ method: ctx.method, route: route ?? '(unmatched)', status: ctx.status }, ms / 1000);
    }
  };
}
