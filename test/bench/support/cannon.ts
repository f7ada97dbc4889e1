import autocannon from 'autocannon';
import type { LoadResult } from './load.js';

/**
 * Closed-loop load from autocannon (issue 16: a load generator that is not itself the
 * bottleneck; the hand-written one in load.ts spends about as much CPU per request as a
 * `/health` answer, on the same two cores). Every answer must be 2xx: a refusal would be a
 * faster request than the one measured.
 */
export async function cannon(
  url: string,
  options: {
    connections: number;
    durationMs: number;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: unknown;
    /** Every request asks for another URL (`?read=<n>` appended), so no kept answer serves it. */
    eachNew?: boolean;
  },
): Promise<LoadResult> {
  let sent = 0;
  const path = new URL(url).pathname;
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationMs / 1000,
    method: options.method ?? 'GET',
    headers: { ...options.headers, ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    ...(options.eachNew
      ? { requests: [{ setupRequest: (request: object) => ({ ...request, path: `${path}?read=${sent++}` }) }] }
      : {}),
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  return {
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
  };
}
