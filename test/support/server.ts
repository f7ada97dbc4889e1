import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Deps } from '../../src/app/deps.js';
import { openDeps } from '../../src/root/create-deps.js';
import { createLogger } from '../../src/app/logger.js';
import { createApp } from '../../src/http/app.js';
import { createHttpServer } from '../../src/http/server.js';
import { systemClock, type Clock } from '../../src/lib/clock.js';
import { createKey, type CreatedKey } from '../../src/modules/auth/keys.service.js';
import { freshDatabase, testExportsDir } from './engine.js';

/**
 * An answer as a test reads it. `T` types the body: pass it where a test relies on a shape
 * (`request<EndedJob>`). It defaults to `any` on purpose: hundreds of assertions read fields
 * of bodies that the same test then asserts whole against the reference or a literal.
 */
// biome-ignore lint/suspicious/noExplicitAny: a test's answer body defaults to any on purpose (see TestResponse in test/support/server.ts); a request that names its type gets it
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export type AuthMode = 'server' | 'client' | 'none' | { bearer: string };

export interface RequestOptions {
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON and form bodies). */
  raw?: string;
  auth?: AuthMode;
  headers?: Record<string, string>;
}

/** One parsed log line: pino's fields and ours. */
export interface LogLine {
  level: string;
  time: string;
  msg: string;
  err?: { type: string; message: string; stack: string };
  [field: string]: unknown;
}

/** The error lines of a log as `message {fields} Type: message` strings, for quick assertions. */
const errorLines = (lines: LogLine[]): string[] =>
  lines
    .filter((line) => line.level === 'error')
    .map(
      ({ level: _level, time: _time, pid: _pid, msg, err, ...fields }) =>
        `${msg} ${JSON.stringify(fields)}${err ? ` ${err.type}: ${err.message}` : ''}`,
    );

export interface TestServer {
  url: string;
  deps: Deps;
  dbFile: string;
  serverKey: CreatedKey;
  clientKey: CreatedKey;
  /** Errors the app logged (500s): a test can assert there were none. */
  logged: string[];
  /** Every line the app logged, parsed (the request log, job lines, errors). */
  logLines: LogLine[];
  // biome-ignore lint/suspicious/noExplicitAny: a test's answer body defaults to any on purpose (see TestResponse in test/support/server.ts); a request that names its type gets it
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  bodyLimitBytes?: number;
  /** How long a request body may take to arrive (PROMO_BODY_TIMEOUT_MS). */
  bodyTimeoutMs?: number;
  dbFile?: string;
  clientOrigins?: string[];
  /** The server's default budget (PROMO_RATE_LIMIT). */
  rateLimit?: number;
}

/**
 * The real app on a real database (a fresh one of the engine under test unless told: see
 * test/support/engine.ts), listening on port 0, with one server and one client key.
 */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const dbFile = options.dbFile ?? (await freshDatabase());
  const logLines: LogLine[] = [];
  const log = createLogger({
    level: 'debug',
    destination: { write: (line: string) => void logLines.push(JSON.parse(line) as LogLine) },
  });
  const deps = await openDeps({ dbFile, clock: options.clock ?? systemClock, log, exportsDir: testExportsDir() });
  const serverKey = await createKey(deps, { kind: 'server', name: 'test server key' });
  const clientKey = await createKey(deps, { kind: 'client', name: 'test client key', origins: options.clientOrigins });
  const app = createApp(deps, {
    bodyLimitBytes: options.bodyLimitBytes,
    bodyTimeoutMs: options.bodyTimeoutMs,
    rateLimit: options.rateLimit,
  });
  const server: Server = createHttpServer(app, log);
  // Longer than fetch's own idle time (4 s), so the client always drops an idle socket first. A
  // test that blocks its thread for seconds (the PostgreSQL bridge's fingerprint under load)
  // would otherwise let both timers fire together: the next request goes out on a socket the
  // server is closing (ECONNRESET).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const authHeaders = (auth: AuthMode): Record<string, string> => {
    if (auth === 'server') return { 'X-App-Id': serverKey.app_id, 'X-App-Token': serverKey.app_token };
    if (auth === 'client') {
      return {
        'X-Client-Application-Id': clientKey.app_id,
        'X-Client-Token': clientKey.app_token,
        origin: 'https://shop.example',
      };
    }
    if (auth === 'none') return {};
    return { Authorization: `Bearer ${auth.bearer}` };
  };

  return {
    url,
    deps,
    dbFile,
    serverKey,
    clientKey,
    get logged() {
      return errorLines(logLines);
    },
    logLines,
    async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse<T>> {
      const headers: Record<string, string> = { ...authHeaders(opts.auth ?? 'server') };
      let body: string | undefined = opts.raw;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['Content-Type'] = 'application/json';
      }
      Object.assign(headers, opts.headers);
      const response = await fetch(`${url}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      // JSON answers are parsed; anything else (the NDJSON failures report) stays text.
      if ((response.headers.get('content-type') ?? '').startsWith('application/json')) parsed = JSON.parse(text);
      return { status: response.status, headers: response.headers, body: parsed as T, text }; // the caller names the body's type; nothing checks it at run time
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await deps.close();
    },
  };
}

/** The request id of an answer, for asserting whole error bodies. */
export const requestIdOf = (response: TestResponse<unknown>): string => response.headers.get('x-request-id') ?? '';

/** The whole error body the API gives for an AppError, with this answer's request id. */
export function errorBody(
  response: TestResponse<unknown>,
  fields: { code: number; key: string; message: string; details: string; resource_id?: string; resource_type?: string },
) {
  return { ...fields, request_id: requestIdOf(response) };
}

/** The whole 500 body of an unexpected error (its cause goes to the server log only). */
export const internalErrorBody = (response: TestResponse<unknown>) =>
  errorBody(response, {
    code: 500,
    key: 'internal_error',
    message: 'Internal server error',
    details: 'Unexpected error; see the server log',
  });

/** The whole 404 body for an unknown resource. */
export const notFoundBody = (response: TestResponse<unknown>, resourceType: string, id: string) =>
  errorBody(response, {
    code: 404,
    key: 'not_found',
    message: 'Resource not found',
    details: `Cannot find ${resourceType} with id ${id}`,
    resource_id: id,
    resource_type: resourceType,
  });
