import { Counter, Gauge, type Registry } from 'prom-client';
import type { Deps } from '../../app/deps.js';
import { deliveryCounts } from './delivery.service.js';
import { oldestPendingAt } from './webhooks.repository.js';

/**
 * Webhooks on /metrics: this process's delivery attempts by outcome (`delivered`; `retried`:
 * failed, tried again later; `failed`: given up), and the age of the oldest event still owed
 * to a webhook (0 when none is): the figure to alert on when a receiver stays down.
 */
export function registerWebhookMetrics(registry: Registry, deps: Pick<Deps, 'db' | 'clock'>): void {
  new Counter({
    name: 'promo_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retried (failed, tried again later) or failed (given up)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, count] of Object.entries(deliveryCounts)) this.inc({ outcome }, count);
    },
  });
  new Gauge({
    name: 'promo_webhook_oldest_undelivered_seconds',
    help: 'Age of the oldest event still owed to a webhook (0 when every event is delivered or given up)',
    registers: [registry],
    async collect() {
      const at = await oldestPendingAt(deps.db);
      this.set(at === undefined ? 0 : Math.max(0, (deps.clock.now().getTime() - Date.parse(at)) / 1000));
    },
  });
}
