import type { Generated } from 'kysely';

export interface CustomerEventTable {
  /** The rowid: orders events that share a created_at in insertion order. */
  seq: Generated<number>;
  /** evcus_... */
  id: string;
  customer_id: string;
  type: string;
  category: 'ACTION' | 'EFFECT';
  campaign_id: string | null;
  campaign_type: string | null;
  /** JSON: the event's data.data. */
  data: string;
  channel: 'API' | 'CLIENT_API' | 'INTERNAL' | 'USER_PORTAL';
  api_key_name: string | null;
  api_key_app_id: string | null;
  /** The id of the request that caused the event. */
  group_id: string;
  created_at: string;
}

export interface EventsTables {
  customer_events: CustomerEventTable;
}
