import type { SimpleCustomer } from '../customers/customers.presenter.js';

/** A custom event as the customer's activity keeps it (the reference's CustomEvent). */
export interface CustomEventObject {
  id: string;
  object: 'event';
  type: string;
  customer: SimpleCustomer;
  referral: { code?: string | null; referrer_id?: string | null } | null;
  loyalty: { code?: string | null } | null;
  metadata: Record<string, unknown>;
  created_at: string;
}

/**
 * The answer of POST /v1/events and /client/v1/events (EventsCreateResponseBody, as the
 * reference's example gives it): the event's name and customer, `referral` and `loyalty` null.
 */
export const presentTrackedEvent = (event: CustomEventObject) => ({
  object: 'event' as const,
  type: event.type,
  customer: event.customer,
  referral: null,
  loyalty: null,
});
