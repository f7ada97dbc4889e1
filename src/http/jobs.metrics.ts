import { Gauge, type Registry } from 'prom-client';
import type { Deps } from '../app/deps.js';
import { jobFigures, type JobFigures } from '../jobs/jobs.service.js';

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

/** Bulk jobs on /metrics, by type and status: how many, and the items they did and failed. */
export function registerJobMetrics(registry: Registry, deps: Pick<Deps, 'db'>): void {
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
  jobGauge('promo_jobs', 'Bulk jobs (async actions) by type and status', (row) => row.jobs);
  jobGauge('promo_job_items_done', 'Items done by the bulk jobs of a type and status', (row) => row.done);
  jobGauge('promo_job_items_failed', 'Items failed by the bulk jobs of a type and status', (row) => row.failed);
}
