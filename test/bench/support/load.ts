import { Agent, request } from 'node:http';

export interface LoadResult {
  requests: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
}

export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/** One request over a keep-alive agent; resolves with the status once the answer is read. */
function send(agent: Agent, url: URL, headers: Record<string, string>, method = 'GET', body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers, method }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const get = (agent: Agent, url: URL, headers: Record<string, string>): Promise<number> => send(agent, url, headers);
/** One JSON request over a keep-alive agent; resolves with the status and the parsed body. */
export function jsonRequest<T>(
  agent: Agent,
  base: string,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { agent, method, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : {}) as T }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/**
 * Closed-loop load: `connections` clients each send the next request when the last answer
 * arrives, for `durationMs`. Every non-200 answer fails the benchmark. Several targets (servers
 * behind one load balancer) share the clients round-robin; the figures are over all of them.
 */
async function closedLoop(
  target: string | string[],
  options: { connections: number; durationMs: number; request: (agent: Agent, url: URL) => Promise<number> },
): Promise<LoadResult> {
  const urls = (Array.isArray(target) ? target : [target]).map((t) => new URL(t));
  const agents = urls.map(() => new Agent({ keepAlive: true, maxSockets: options.connections }));
  const latencies: number[] = [];
  const deadline = performance.now() + options.durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.connections }, async (_, client) => {
      const url = urls[client % urls.length] as URL;
      const agent = agents[client % urls.length] as Agent;
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const status = await options.request(agent, url);
        if (status !== 200) throw new Error(`${url} answered ${status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  for (const agent of agents) agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: Math.round(latencies.length / elapsed),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
  };
}

/** GETs of `target` under closed-loop load (16 clients for 3 s unless told). */
export function measureThroughput(
  target: string | string[],
  options: { connections?: number; durationMs?: number; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const { connections = 16, durationMs = 3000, headers = {} } = options;
  return closedLoop(target, { connections, durationMs, request: (agent, url) => get(agent, url, headers) });
}

/** JSON POSTs to `target` under closed-loop load, each with a new body from `body()`. */
export function measurePosts(
  target: string | string[],
  options: { connections: number; durationMs: number; headers?: Record<string, string>; body: () => unknown },
): Promise<LoadResult> {
  const headers = { ...options.headers, 'Content-Type': 'application/json' };
  return closedLoop(target, {
    ...options,
    request: (agent, url) => send(agent, url, headers, 'POST', JSON.stringify(options.body())),
  });
}

/**
 * Latency of single requests, one at a time (no queueing): for list/lookup comparisons.
 * `paths` are requested round-robin `count` times after `warmup` unmeasured requests.
 */
export async function measureLatency(
  base: string,
  paths: string[],
  options: { count?: number; warmup?: number; headers?: Record<string, string> } = {},
): Promise<{ p50_ms: number; p99_ms: number; n: number }> {
  const { count = 500, warmup = 50, headers = {} } = options;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const url = new URL(`${base}${paths[i % paths.length]}`);
    const t0 = performance.now();
    const status = await get(agent, url, headers);
    if (status !== 200) throw new Error(`GET ${url} answered ${status}`);
    if (i >= warmup) latencies.push(performance.now() - t0);
  }
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { p50_ms: round(percentile(latencies, 50)), p99_ms: round(percentile(latencies, 99)), n: latencies.length };
}

export const round = (n: number, digits = 3): number => Number(n.toFixed(digits));
