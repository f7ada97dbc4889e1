import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Deps } from '../app/deps.js';
import { registerDatabaseMetrics } from './database.metrics.js';
import { registerJobMetrics } from './jobs.metrics.js';

/**
 * What `GET /metrics` shows, in Prometheus' text format (prom-client): requests by route
 * pattern (never the raw path, so the series stay few), jobs by type and status, the database
 * and WAL sizes, the last WAL checkpoint a job worker ran, and the process figures.
 */
export interface Metrics {
  registry: Registry;
  observeRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  observeCheckpoint(seconds: number): void;
}

export function createMetrics(deps: Pick<Deps, 'db' | 'engine'>): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'promo_http_requests_total',
    help: 'HTTP requests answered, by route pattern and status',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'promo_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and status',
    labelNames,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const checkpoint = new Gauge({
    name: 'promo_wal_checkpoint_last_seconds',
    help: 'How long the last WAL checkpoint took (job worker threads run them: during and after bulk jobs, and while idle)',
    registers: [registry],
  });
  registerDatabaseMetrics(registry, deps);
  registerJobMetrics(registry, deps);
  // One entry per method, status and route pattern (never a raw path): bounded by the routes.
  const seriesByLabels = new Map<string, { requests: { inc(): void }; latency: { observe(value: number): void } }>();
  return {
    registry,
    observeRequest(labels, seconds) {
      // prom-client hashes a label set on every call; each set's children are kept instead.
      const key = `${labels.method} ${labels.status} ${labels.route}`;
      let series = seriesByLabels.get(key);
      if (!series)
        seriesByLabels.set(key, (series = { requests: requests.labels(labels), latency: latency.labels(labels) }));
      series.requests.inc();
      series.latency.observe(seconds);
    },
    observeCheckpoint: (seconds) => checkpoint.set(seconds),
  };
}
