import { statSync } from 'node:fs';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { jobFigures, type JobFigures } from '../jobs/jobs.service.js';

import type { Deps } from '../app/deps.js';
import type { CommitStats } from '../db/sqlite/group-commit.js';

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

const sizeOf = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/**
 * The job figures of one scrape: prom-client collects the three job gauges at once, and they
 * share one query instead of running three.
 */
function latestJobFigures(deps: Pick<Deps, 'db'>): () => Promise<JobFigures[]> {
  let latest: { at: number; figures: Promise<JobFigures[]> } | undefined;
  return () => {
    if (!latest || Date.now() - latest.at > 1000) latest = { at: Date.now(), figures: jobFigures(deps) };
    return latest.figures;
  };
}

export function createMetrics(deps: Pick<Deps, 'db' | 'dbFile' | 'commitStats'>): Metrics {
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
  new Gauge({
    name: 'promo_database_bytes',
    help: 'Size of the database file and of its write-ahead log',
    labelNames: ['file'],
    registers: [registry],
    collect() {
      this.set({ file: 'database' }, sizeOf(deps.dbFile));
      this.set({ file: 'wal' }, sizeOf(`${deps.dbFile}-wal`));
    },
  });
  const commits = (name: string, help: string, value: (stats: CommitStats) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(value(deps.commitStats()));
      },
    });
  commits(
    'promo_commit_batches_total',
    'Durable COMMITs of the API connection: each holds one batch of write transactions',
    (s) => s.batches,
  );
  commits(
    'promo_commit_transactions_total',
    'Write transactions those batches held: divided by the batches, the mean batch size',
    (s) => s.transactions,
  );
  commits(
    'promo_commit_seconds_total',
    'Time the API connection spent in COMMIT: writing the batch to the WAL, then waiting for the disk',
    (s) => s.commitSeconds,
  );
  commits(
    'promo_transaction_seconds_total',
    'Time write transactions held the API connection, COMMIT excepted: with promo_commit_seconds_total, how busy the one writer is',
    (s) => s.transactionSeconds,
  );
  const figures = latestJobFigures(deps);
  const jobGauge = (name: string, help: string, value: (row: JobFigures) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['type', 'status'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const row of await figures()) this.set({ type: row.type, status: row.status }, value(row) ?? 0);
      },
    });
  // One entry per method, status and route pattern (never a raw path): bounded by the routes.
  const seriesByLabels = new Map<string, { requests: { inc(): void }; latency: { observe(value: number): void } }>();
  jobGauge('promo_jobs', 'Bulk jobs (async actions) by type and status', (row) => row.jobs);
  jobGauge('promo_job_items_done', 'Items done by the bulk jobs of a type and status', (row) => row.done);
  jobGauge('promo_job_items_failed', 'Items failed by the bulk jobs of a type and status', (row) => row.failed);
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
