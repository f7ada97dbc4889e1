import type { Generated } from 'kysely';

/** A webhook (sql/0032): where its events go, which, and the secret that signs them. */
export interface WebhookTable {
  seq: Generated<number>;
  id: string;
  target_url: string;
  /** JSON array of event types. */
  events: string;
  active: 0 | 1;
  secret: string;
  created_at: string;
  updated_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
}

/** An event that at least one webhook wanted when it was committed. */
export interface WebhookEventTable {
  seq: Generated<number>;
  id: string;
  type: string;
  /** JSON: the event's data object. */
  data: string;
  entity_id: string | null;
  group_id: string | null;
  channel: string;
  created_at: string;
  /** PostgreSQL: the id of the transaction that wrote the event (its default); null on SQLite. */
  writer_xid: Generated<number | null>;
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

/** One event owed to one webhook, and how its sending went. */
export interface WebhookDeliveryTable {
  seq: Generated<number>;
  id: string;
  webhook_id: string;
  event_seq: number;
  status: DeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: string;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
  /**
   * PostgreSQL: the id of the transaction that wrote the row (its default), the first key of a
   * queue's sending order (queue.repository.ts). Null on SQLite, whose seq is commit order.
   */
  writer_xid: Generated<number | null>;
}

/** The fan-out's place (sql/0035): the last event, by (event_xid, event_seq), that has its deliveries. */
export interface WebhookFanoutTable {
  id: number;
  event_xid: number | null;
  event_seq: number;
}

export interface WebhooksTables {
  webhook_fanout: WebhookFanoutTable;
  webhooks: WebhookTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
}
