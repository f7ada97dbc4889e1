import type { presentSimpleCampaign } from '../campaigns/index.js';
import type { SimpleCustomer } from '../customers/index.js';
import type { VoucherView } from '../vouchers/index.js';

/** A custom event (the reference's CustomEvent), as the activity's `event` keeps it. */
export interface CustomEventObject {
  id: string;
  object: 'event';
  type: string;
  customer: SimpleCustomer;
  referral: { code?: string | null; referrer_id?: string | null };
  loyalty: { code?: string | null };
  metadata: Record<string, unknown>;
  created_at: string;
}

/** The card a custom event is attributed to, as the activity's `loyalty` shows it (SimpleVoucher and SimpleCampaign). */
export interface EventLoyalty {
  voucher: ReturnType<typeof presentSimpleCard>;
  campaign: ReturnType<typeof presentSimpleCampaign>;
}

/** A loyalty card as the reference's SimpleVoucher. */
export const presentSimpleCard = (card: VoucherView) => ({
  id: card.id,
  code: card.code,
  campaign: card.campaign,
  campaign_id: card.campaign_id,
  type: card.type,
  loyalty_card: card.loyalty_card,
  active: card.active,
  metadata: card.metadata,
  is_referral_code: card.is_referral_code,
  holder_id: card.holder_id,
  created_at: card.created_at,
  updated_at: card.updated_at,
  object: card.object,
});

/**
 * The `data.data` of a `customer.custom_event` activity (the reference's
 * EventCustomerCustomEvent): the event, its schema (promo has none: its name only), the
 * customer, the card it is attributed to (or null), and `referral` null (no conversion).
 */
export const presentEventActivity = (event: CustomEventObject, loyalty: EventLoyalty | null) => ({
  event,
  event_schema: { name: event.type },
  customer: event.customer,
  referral: null,
  loyalty,
});

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
