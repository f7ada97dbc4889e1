/** The webhooks module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { loopOptions, startDeliveryLoop } from './delivery-loop.service.js';
export { deliverOnce } from './delivery.service.js';
export { registerWebhookMetrics } from './webhooks.metrics.js';
export type { DeliveryObject, WebhookObject } from './webhooks.presenter.js';
export { createWebhookSchema } from './webhooks.schemas.js';
export {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  replayEvent,
  sendTestEvent,
} from './webhooks.service.js';
export { startHttpThread } from './post-thread.client.js';
