import { randomBytes } from 'node:crypto';

/**
 * Who caused a change: the channel, the key behind the request and the request id. Services
 * that write customer events take it, so the event's `event_source` and `group_id` are true.
 */
export interface Actor {
  channel: 'API' | 'CLIENT_API' | 'INTERNAL';
  api_key?: { name: string; app_id: string };
  request_id: string;
}

/** The actor of a command-line operation: no key, channel INTERNAL, its own group id. */
export const internalActor = (): Actor => ({ channel: 'INTERNAL', request_id: `c-${randomBytes(9).toString('hex')}` });
