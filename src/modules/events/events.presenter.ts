import type { CustomerEventRow } from './events.repository.js';

export interface EventSource {
  channel: CustomerEventRow['channel'];
  api_key?: { name: string; app_id: string };
}

/** An item of the customer activity feed (the reference's CustomerActivity object; the type field per voucherify-facts 2.5). */
export interface CustomerActivity {
  id: string;
  type: string;
  data: { data: Record<string, unknown>; event_source: EventSource };
  created_at: string;
  group_id: string;
}

export function eventSourceOf(row: Pick<CustomerEventRow, 'channel' | 'api_key_name' | 'api_key_app_id'>): EventSource {
  if (row.api_key_app_id === null) return { channel: row.channel };
  return { channel: row.channel, api_key: { name: row.api_key_name ?? '', app_id: row.api_key_app_id } };
}

/** `data`: a redemption event's data, read from its record (redemption-events.seam.ts); else the row's own. */
export const presentEvent = (row: CustomerEventRow, data?: Record<string, unknown>): CustomerActivity => ({
  id: row.id,
  type: row.type,
  data: { data: data ?? (JSON.parse(row.data) as Record<string, unknown>), event_source: eventSourceOf(row) },
  created_at: row.created_at,
  group_id: row.group_id,
});
