import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, webhookTimingFromEnv, type ConfigOverrides } from '../../app/config.js';
import { createDeps, type Deps } from '../../app/deps.js';
import { createLogger } from '../../app/logger.js';
import { createMetrics } from '../../http/metrics.js';
import { createApp } from '../../http/app.js';
import { createHttpServer } from '../../http/server.js';
import { AppError } from '../../lib/errors.js';
import { jobRegistry } from '../../app/job-registry.js';
import { sweepRegistry } from '../../app/sweep-registry.js';
import { startJobRunner } from '../../jobs/runner.js';
import { bootstrapKeys, type CreatedKey } from '../../modules/auth/keys.service.js';
import { fail, UsageError } from '../run.js';
import { loopOptions, startDeliveryLoop } from '../../modules/webhooks/delivery-loop.js';
import { registerWebhookMetrics } from '../../modules/webhooks/webhooks.metrics.js';

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

/** Why `listen` failed, in words an operator can act on. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): AppError {
  const where = `${host}:${port}`;
  const advice: Record<string, string> = {
    EADDRINUSE: `Port ${port} on ${host} is already in use by another program (another promo serve?). Stop it, or choose another port with --port or PROMO_PORT (0 picks a free one).`,
    EACCES: `This user may not listen on ${where} (ports below 1024 need privileges). Choose a port above 1023 with --port or PROMO_PORT.`,
    EADDRNOTAVAIL: `${host} is not an address of this machine. Use --host 127.0.0.1 (this machine only) or 0.0.0.0 (every interface), or PROMO_HOST.`,
  };
  return new AppError('cannot_listen', advice[error.code ?? ''] ?? `Cannot listen on ${where}: ${error.message}`);
}

const urlOf = (address: AddressInfo): string =>
  `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

/** Stop accepting, let requests in flight finish, release what the deps hold, exit 0. */
function shutdownOn(server: Server, deps: Deps): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(async () => {
      await deps.close();
      deps.log.flush();
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
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
    deps = createDeps({ dbFile: config.dbFile, log: createLogger({ level: config.logLevel }) });
    announceKeys(await bootstrapKeys(deps, config));
  } catch (error) {
    return fail(error);
  }
  // Bulk jobs run on `workers` threads; on shutdown the runner finishes its portions in
  // flight and releases its leases, so another process can take the jobs over at once. The
  // periodic sweeps (points expiry...) run with it.
  const metrics = createMetrics(deps);
  const runner = startJobRunner(deps, {
    workers: config.workers,
    registry: jobRegistry,
    sweeps: sweepRegistry,
    onCheckpoint: (ms) => metrics.observeCheckpoint(ms / 1000),
    handOffMs: config.handOffMs,
  });
  deps.onClose.push(() => runner.stop());
  // Webhooks: the outbox's sender, off the request path (modules/webhooks/delivery-loop.ts).
  const webhooks = startDeliveryLoop(deps, loopOptions(webhookTiming));
  deps.onClose.push(() => webhooks.stop());
  registerWebhookMetrics(metrics.registry, deps);
  const app = createApp(deps, { bodyLimitBytes: config.bodyLimitBytes, metrics, metricsToken: config.metricsToken, rateLimit: config.rateLimit });
  const server = createHttpServer(app, deps.log);
  server.on('error', async (error: NodeJS.ErrnoException) => {
    fail(listenError(error, config.host, config.port));
    await deps.close();
  });
  server.listen(config.port, config.host, () => {
    process.stdout.write(`listening on ${urlOf(server.address() as AddressInfo)}\n`);
  });
  shutdownOn(server, deps);
}
