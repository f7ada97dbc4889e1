import type { DeliveryView, WebhookRow } from './webhooks.repository.js';

/** The reference's ManagementProjectsWebhook, in its field order. */
export interface WebhookObject {
  object: 'webhook';
  created_at: string;
  id: string;
  events: string[];
  target_url: string;
  active: boolean;
}

export const presentWebhook = (row: WebhookRow): WebhookObject => ({
  object: 'webhook',
  created_at: row.created_at,
  id: row.id,
  events: JSON.parse(row.events) as string[],
  target_url: row.target_url,
  active: row.active === 1,
});

/** One delivery of an event to a webhook (promo's own object: the reference shows sendouts only in its dashboard). */
export interface DeliveryObject {
  object: 'webhook_delivery';
  id: string;
  webhook_id: string;
  event: { id: string; type: string };
  status: string;
  attempts: number;
  /** When it is tried next; null once DELIVERED or FAILED. */
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export const presentDelivery = (row: DeliveryView): DeliveryObject => ({
  object: 'webhook_delivery',
  id: row.id,
  webhook_id: row.webhook_id,
  event: { id: row.event_id, type: row.event_type },
  status: row.status,
  attempts: row.attempts,
  next_attempt_at: row.status === 'PENDING' ? row.next_attempt_at : null,
  last_status: row.last_status,
  last_error: row.last_error,
  created_at: row.created_at,
  finished_at: row.finished_at,
});
