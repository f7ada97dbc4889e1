import { Router } from '@koa/router';
import Koa from 'koa';
import type { Deps } from '../app/deps.js';
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_BODY_TIMEOUT_MS } from '../app/config.js';
import { createMetrics, type Metrics } from './metrics.js';
import type { AppState } from './context.js';
import { keptAnswers } from './kept-answers.js';
import { metricsEndpoint } from './metrics-endpoint.js';
import { authMiddleware } from './middleware/auth.js';
import { bodyMiddleware } from './middleware/body.js';
import { idempotency } from './middleware/idempotency.js';
import { refuseNulInUrl } from './middleware/nul-in-url.js';
import { rateLimit } from './middleware/rate-limit.js';
import { errorRenderer } from './middleware/errors.js';
import { requestId } from './middleware/request-id.js';
import { requestLog } from './middleware/request-log.js';
import { groupedRoutes } from './route-groups.js';
import { routeModules } from './routes.js';

export interface AppOptions {
  bodyLimitBytes?: number;
  /** PROMO_BODY_TIMEOUT_MS: how long a request body may take to arrive before 408. */
  bodyTimeoutMs?: number;
  /** Shared with the job runner by `serve`, so job checkpoints show too; made here otherwise. */
  metrics?: Metrics;
  /** PROMO_METRICS_TOKEN: /metrics then answers this bearer token from anywhere. */
  metricsToken?: string;
  /** PROMO_RATE_LIMIT: requests per minute for keys without their own budget. */
  rateLimit?: number;
}

/** The whole HTTP API as a Koa app. It listens only when `serve` (or a test) asks it to. */
export function createApp(deps: Deps, options: AppOptions = {}): Koa<AppState> {
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const app = new Koa<AppState>();
  app.proxy = false;
  // Errors are rendered by errorRenderer; Koa's own handler would only log them twice.
  app.silent = true;

  const router = new Router<AppState>();
  router.get('/health', async (ctx) => {
    await deps.engine.checkHealth();
    ctx.body = { status: 'ok' };
  });
  const metrics = options.metrics ?? createMetrics(deps);
  router.get('/metrics', metricsEndpoint(metrics, options.metricsToken));
  for (const register of routeModules) register(router, deps);

  app.use(requestId);
  app.use(requestLog(deps.log, metrics));
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  app.use(errorRenderer(deps.log, bodyTimeoutMs));
  // Credentials and the rate limit come from the headers, before any body is read: a request
  // refused there never makes the server hold its body (middleware/auth.ts).
  const auth = authMiddleware(deps);
  app.use(auth.admit);
  app.use(rateLimit(options.rateLimit, deps.engine));
  app.use(bodyMiddleware(bodyLimitBytes, bodyTimeoutMs));
  app.use(auth.authenticate);
  app.use(refuseNulInUrl);
  app.use(idempotency(deps));
  app.use(keptAnswers(deps.engine));
  app.use(groupedRoutes(router));
  return app;
}
