import { resolve } from 'node:path';
import { LOG_LEVELS, type LogLevel } from './logger.js';

/**
 * The only reader of process.env. Command-line flags win over the environment, which wins
 * over the defaults.
 */
export interface KeyFromEnv {
  appId: string;
  token: string;
  origins?: string[];
}

export interface Config {
  dbFile: string;
  host: string;
  port: number;
  workers: number;
  /** Largest accepted request body, in bytes. */
  bodyLimitBytes: number;
  /** PROMO_BODY_TIMEOUT_MS: how long a request body may take to arrive (then 408). */
  bodyTimeoutMs: number;
  serverKey?: KeyFromEnv;
  clientKey?: KeyFromEnv;
  logLevel: LogLevel;
  /** PROMO_RATE_LIMIT: requests per minute for keys without a budget of their own. */
  rateLimit?: number;
  /** PROMO_METRICS_TOKEN: lets /metrics answer this bearer token from any address. */
  metricsToken?: string;
  /** PROMO_HAND_OFF_MS: how long an API write waits before a generation's portion ends for it. */
  handOffMs?: number;
}

export const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * 30 s for a body to arrive once its headers have: a 16 MiB body at 1 MB/s still makes it,
 * a client that trickles bytes to hold a connection does not. Node's own limit on a whole
 * request (server.requestTimeout, 300 s) stays above the largest value allowed here.
 */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
export const MAX_BODY_TIMEOUT_MS = 240_000;

export function parseBodyTimeoutMs(value: string | undefined): number {
  if (value === undefined) return DEFAULT_BODY_TIMEOUT_MS;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_BODY_TIMEOUT_MS)
    throw new Error(`Invalid PROMO_BODY_TIMEOUT_MS: ${value} (milliseconds, 1..${MAX_BODY_TIMEOUT_MS})`);
  return n;
}

export interface ConfigOverrides {
  db?: string;
  host?: string;
  port?: string | number;
  workers?: string | number;
  logLevel?: string;
}

const env = (name: string): string | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};

export function parsePort(value: string | number): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${value}`);
  return port;
}

export function parseWorkers(value: string | number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`Invalid worker count: ${value} (1..64)`);
  return n;
}

/** The largest budget a key may have: requests per minute. */
export const MAX_RATE_LIMIT = 100_000_000;

export function parseRateLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_RATE_LIMIT)
    throw new Error(`Invalid PROMO_RATE_LIMIT: ${value} (requests per minute, 1..${MAX_RATE_LIMIT})`);
  return n;
}

/** The most an API write may be made to wait for a generation's portion (jobs/portion-size.ts). */
export const MAX_HAND_OFF_MS = 1000;

export function parseHandOffMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_HAND_OFF_MS)
    throw new Error(`Invalid PROMO_HAND_OFF_MS: ${value} (milliseconds, 1..${MAX_HAND_OFF_MS})`);
  return n;
}

/** The log level: the flag, else PROMO_LOG_LEVEL, else the command's default. */
export function logLevelFrom(flag: string | undefined, fallback: LogLevel): LogLevel {
  const level = flag ?? env('PROMO_LOG_LEVEL') ?? fallback;
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new Error(`Invalid log level: ${level} (${LOG_LEVELS.join(', ')})`);
  return level as LogLevel;
}

export const dbFileFrom = (flag?: string): string => flag ?? env('PROMO_DB') ?? './promo.db';

/**
 * PROMO_EXPORTS_DIR: where export files are written and served from. Unset: beside a SQLite file,
 * `./promo.exports` for a PostgreSQL URL. Servers and commands sharing one PostgreSQL database
 * must name one shared folder, or a download through another process misses the file.
 */
export function exportsDirFrom(): string | undefined {
  const dir = env('PROMO_EXPORTS_DIR');
  return dir === undefined ? undefined : resolve(dir);
}

export function loadConfig(overrides: ConfigOverrides = {}): Config {
  const appId = env('PROMO_APP_ID');
  const appToken = env('PROMO_APP_TOKEN');
  const clientId = env('PROMO_CLIENT_APP_ID');
  const clientToken = env('PROMO_CLIENT_TOKEN');
  const origins = env('PROMO_CLIENT_ORIGINS')
    ?.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return {
    dbFile: dbFileFrom(overrides.db),
    host: overrides.host ?? env('PROMO_HOST') ?? '127.0.0.1',
    port: parsePort(overrides.port ?? env('PROMO_PORT') ?? 8080),
    workers: parseWorkers(overrides.workers ?? env('PROMO_WORKERS') ?? 2),
    bodyLimitBytes: Number(env('PROMO_BODY_LIMIT_BYTES') ?? DEFAULT_BODY_LIMIT_BYTES),
    bodyTimeoutMs: parseBodyTimeoutMs(env('PROMO_BODY_TIMEOUT_MS')),
    serverKey: appId && appToken ? { appId, token: appToken } : undefined,
    clientKey: clientId && clientToken ? { appId: clientId, token: clientToken, origins } : undefined,
    logLevel: logLevelFrom(overrides.logLevel, 'info'),
    metricsToken: env('PROMO_METRICS_TOKEN'),
    rateLimit: parseRateLimit(env('PROMO_RATE_LIMIT')),
    handOffMs: parseHandOffMs(env('PROMO_HAND_OFF_MS')),
  };
}

/** The webhook sender's timing (docs/webhooks.md), in milliseconds; those unset keep their defaults. */
export interface WebhookTiming {
  timeoutMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  giveUpMs?: number;
  pollMs?: number;
  /** How long delivered events and their deliveries are kept (the retention sweep). */
  retentionMs?: number;
  /** How long failed deliveries (and their events) are kept. */
  failedRetentionMs?: number;
}

/**
 * PROMO_WEBHOOK_TIMEOUT_MS, _RETRY_BASE_MS, _RETRY_MAX_MS, _GIVE_UP_MS, _POLL_MS, _RETENTION_MS
 * and _FAILED_RETENTION_MS: positive integers.
 */
export function webhookTimingFromEnv(): WebhookTiming {
  const read = (name: string): number | undefined => {
    const value = env(`PROMO_WEBHOOK_${name}`);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`Invalid PROMO_WEBHOOK_${name}: ${value} (milliseconds, a positive integer)`);
    return n;
  };
  return {
    timeoutMs: read('TIMEOUT_MS'),
    retryBaseMs: read('RETRY_BASE_MS'),
    retryMaxMs: read('RETRY_MAX_MS'),
    giveUpMs: read('GIVE_UP_MS'),
    pollMs: read('POLL_MS'),
    retentionMs: read('RETENTION_MS'),
    failedRetentionMs: read('FAILED_RETENTION_MS'),
  };
}
