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
  /** JSON: the event's data.data ('{}' when it is a redemption record's: redemption_id). */
  data: string;
  channel: 'API' | 'CLIENT_API' | 'INTERNAL' | 'USER_PORTAL';
  api_key_name: string | null;
  api_key_app_id: string | null;
  /** The id of the request that caused the event. */
  group_id: string;
  created_at: string;
  /**
   * A redemption event's record (sql/0038): its data is that record as written, rebuilt when
   * read (EVENT_RECORDS), not a copy.
   */
  redemption_id: Generated<string | null>;
}

export interface EventsTables {
  customer_events: CustomerEventTable;
}
