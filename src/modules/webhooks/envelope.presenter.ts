import { RawJson, stringifyJson } from '../../lib/raw-json.js';
import type { EventRow } from './webhooks.repository.js';

/**
 * Promo is one project: the `projectId` the management paths take and every delivery's
 * `project_id` (docs/webhooks.md).
 */
export const PROJECT_ID = 'proj_promo';

/**
 * The body of one delivery, in the reference's v2024-01-01 webhook shape: the sendout `id`
 * (whs_, the same on every attempt), `project_id`, `created_at`, `type`, `data`, `source`
 * (the webhook) and `event` (the original event: its `id` is the same for every webhook and
 * every attempt, so a receiver drops duplicates by it). The stored data is embedded as written.
 */
export function envelope(
  sendout: { id: string; created_at: string },
  event: EventRow,
  webhook: { id: string; target_url: string },
): string {
  return stringifyJson({
    id: sendout.id,
    project_id: PROJECT_ID,
    created_at: sendout.created_at,
    type: event.type,
    data: new RawJson(event.data),
    source: { id: webhook.id, object: 'webhook', target_url: webhook.target_url },
    event: {
      id: event.id,
      type: event.type,
      created_at: event.created_at,
      entity_id: event.entity_id,
      group_id: event.group_id,
      event_source: { channel: event.channel },
    },
  });
}
