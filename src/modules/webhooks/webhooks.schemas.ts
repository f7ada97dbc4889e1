import { array, boolean, object, string, type InferType } from 'yup';
import { isWebhookEventType } from './webhook-events.types.js';

/**
 * The reference's ManagementProjectsWebhooks{Create,Update}RequestBody: `target_url`, `events`
 * and `active`. A target is an absolute http or https URL (nothing else is ever called); events
 * come from the reference's list, at least one. Unknown fields are dropped, as everywhere.
 */
export const MAX_TARGET_URL = 2048;

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

const targetUrl = () =>
  string()
    .typeError('target_url must be a string')
    .max(MAX_TARGET_URL, `target_url must be at most ${MAX_TARGET_URL} characters`)
    .test(
      'http-url',
      'target_url must be an absolute http or https URL',
      (v) => v === undefined || v === null || isHttpUrl(v),
    );

const events = () =>
  array(string().typeError('events must hold strings').required('events must hold strings'))
    .typeError('events must be an array of event types')
    .min(1, 'events must name at least one event type')
    .max(100, 'events must name at most 100 event types')
    .test('known-events', '', function check(value) {
      const unknown = (value ?? []).filter((type) => typeof type === 'string' && !isWebhookEventType(type));
      return unknown.length === 0 || this.createError({ message: `events: unknown event type ${unknown.join(', ')}` });
    });

export const createWebhookSchema = object({
  target_url: targetUrl().required('target_url is required'),
  events: events().required('events is required'),
  active: boolean().typeError('active must be a boolean'),
});

export const updateWebhookSchema = object({
  target_url: targetUrl(),
  events: events(),
  active: boolean().typeError('active must be a boolean'),
});

export type CreateWebhookBody = InferType<typeof createWebhookSchema>;
export type UpdateWebhookBody = InferType<typeof updateWebhookSchema>;
