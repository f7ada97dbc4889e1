import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { exportsDirFrom, loadConfig, webhookTimingFromEnv, type ConfigOverrides } from '../../app/config.js';
import type { Deps } from '../../app/deps.js';
import { openDeps } from '../../root/create-deps.js';
import { isPostgresUrl } from '../../db/location.js';
import { createLogger } from '../../app/logger.js';
import { createMetrics, type Metrics } from '../../http/metrics.js';
import { createApp } from '../../http/app.js';
import { createHttpServer } from '../../http/server.js';
import { AppError } from '../../lib/errors.js';
import { jobRegistry } from '../../root/job-registry.js';
import { useWriterThread } from '../../root/writer-thread.js';
import { sweepRegistry } from '../../root/sweep-registry.js';
import { startJobRunner } from '../../jobs/runner.js';
import { bootstrapKeys, type CreatedKey } from '../../modules/auth/index.js';
import { databaseToCreate } from '../mistakes.js';
import { fail, UsageError } from '../run.js';
import {
  loopOptions,
  startDeliveryLoop,
  registerWebhookMetrics,
  startHttpThread,
} from '../../modules/webhooks/index.js';

const SHUTDOWN_GRACE_MS = 10_000;

function announceKeys(keys: CreatedKey[]): void {
  if (keys.length === 0) return;
  const lines = keys.map((k) =>
    k.kind === 'server'
      ? `  server key: X-App-Id: ${k.app_id}  X-App-Token: ${k.app_token}`
      : `  client key: X-Client-Application-Id: ${k.app_id}  X-Client-Token: ${k.app_token}  (origins: ${k.origins.join(',')})`,
  );
  process.stderr.write(`No API keys existed, so promo created these. They are shown only once:\n${lines.join('\n')}\n`);
}

const urlOf = (address: AddressInfo): string =>
  `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

/**
 * Stop accepting, let requests in flight finish, release what the deps hold, exit 0. Both ends
 * of the stop are logged, so an operator reading the log knows the server went away on purpose
 * and whether it got as far as closing the database.
 */
function shutdownOn(server: Server, deps: Deps): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    deps.log.info('stopping: no longer listening, finishing requests in flight', {
      signal,
      grace_ms: SHUTDOWN_GRACE_MS,
    });
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(async () => {
      await deps.close();
      deps.log.info('stopped: database closed', { signal });
      deps.log.flush();
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * Bulk jobs run on `workers` threads; on shutdown the runner finishes its portions in flight
 * and releases its leases, so another process can take the jobs over at once. The periodic
 * sweeps (points expiry...) run with it. On both engines: several servers on one PostgreSQL
 * share the jobs (claims skip locked rows) and sweep side by side (guarded claims).
 */
function startJobs(deps: Deps, config: ReturnType<typeof loadConfig>, metrics: Metrics): void {
  const runner = startJobRunner(deps, {
    workers: config.workers,
    registry: jobRegistry,
    sweeps: sweepRegistry,
    onCheckpoint: (ms) => metrics.observeCheckpoint(ms / 1000),
    handOffMs: config.handOffMs,
  });
  deps.onClose.push(() => runner.stop());
}

/**
 * Webhooks: the outbox's sender, off the request path (modules/webhooks/delivery-loop.service.ts),
 * its POSTs on a thread of their own (modules/webhooks/post-thread.client.ts). On PostgreSQL
 * too: several servers on one database share the queues (claims skip what another holds).
 */
function startWebhooks(deps: Deps, timing: ReturnType<typeof webhookTimingFromEnv>, metrics: Metrics): void {
  const posts = startHttpThread();
  deps.onClose.push(() => posts.stop());
  const webhooks = startDeliveryLoop(deps, { ...loopOptions(timing), post: posts.post });
  deps.onClose.push(() => webhooks.stop());
  registerWebhookMetrics(metrics.registry, deps);
}

export async function serve(options: ConfigOverrides): Promise<void> {
  let config;
  let webhookTiming;
  try {
    config = loadConfig(options);
    webhookTiming = webhookTimingFromEnv();
  } catch (error) {
    return fail(new UsageError((error as Error).message));
  }
  let deps: Deps;
  try {
    // Said first, so a mistyped --db shows at once (every other command refuses a missing file).
    if (!isPostgresUrl(config.dbFile) && databaseToCreate(config.dbFile))
      process.stderr.write(`Created a new promo database at ${resolve(config.dbFile)}\n`);
    const log = createLogger({ level: config.logLevel });
    deps = await openDeps({ dbFile: config.dbFile, log, exportsDir: exportsDirFrom() });
    announceKeys(await bootstrapKeys(deps, config));
  } catch (error) {
    return fail(error, { dbFile: config.dbFile });
  }
  useWriterThread(deps, config.logLevel);
  const metrics = createMetrics(deps);
  startJobs(deps, config, metrics);
  startWebhooks(deps, webhookTiming, metrics);
  const app = createApp(deps, {
    bodyLimitBytes: config.bodyLimitBytes,
    bodyTimeoutMs: config.bodyTimeoutMs,
    metrics,
    metricsToken: config.metricsToken,
    rateLimit: config.rateLimit,
  });
  const server = createHttpServer(app, deps.log);
  server.on('error', async (error: NodeJS.ErrnoException) => {
    fail(error);
    await deps.close();
  });
  server.listen(config.port, config.host, () => {
    process.stdout.write(`listening on ${urlOf(server.address() as AddressInfo)}\n`);
  });
  shutdownOn(server, deps);
}
