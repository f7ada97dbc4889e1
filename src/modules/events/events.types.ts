/**
 * Customer event names (the `type` filter of the reference's "List Customer Activity"). They are the allowed values of the activity `type`
 * filter (4.12); an unknown name there is 400.
 */
const MESSAGING_CHANNELS = [
  'sms',
  'email',
  'activecampaign',
  'braze',
  'mailchimp',
  'intercom',
  'shopify',
  'klaviyo',
  'batch',
];

export const FILTERABLE_EVENT_TYPES = [
  'customer.confirmed',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'customer.referred',
  'customer.custom_event',
  'customer.segment.entered',
  'customer.segment.left',
  'customer.sms.sent',
  'customer.sms.recovered',
  'customer.sms.failed',
  'customer.email.sent',
  'customer.email.recovered',
  'customer.email.failed',
  'customer.activecampaign.sent',
  'customer.activecampaign.recovered',
  'customer.activecampaign.failed',
  'customer.braze.sent',
  'customer.braze.recovered',
  'customer.braze.failed',
  'customer.mailchimp.sent',
  'customer.mailchimp.recovered',
  'customer.mailchimp.failed',
  'customer.intercom.sent',
  'customer.intercom.recovered',
  'customer.intercom.failed',
  'customer.shopify.sent',
  'customer.shopify.recovered',
  'customer.shopify.failed',
  'customer.klaviyo.sent',
  'customer.klaviyo.recovered',
  'customer.klaviyo.failed',
  'customer.batch.sent',
  'customer.batch.recovered',
  'customer.batch.failed',
  'customer.rewarded',
  'customer.rewarded.loyalty_points',
  'customer.voucher.gift.balance_added',
  'customer.voucher.loyalty_card.points_added',
  'customer.voucher.loyalty_card.points_transferred',
  'customer.voucher.loyalty_card.points_expired',
  'customer.voucher.deleted',
  'customer.publication.succeeded',
  'customer.publication.failed',
  'customer.validation.succeeded',
  'customer.validation.failed',
  'customer.redemption.failed',
  'customer.redemption.succeeded',
  'customer.redemption.rollback.failed',
  'customer.redemption.rollback.succeeded',
  'customer.order.canceled',
  'customer.order.created',
  'customer.order.fulfilled',
  'customer.order.paid',
  'customer.order.processing',
  'customer.order.updated',
  'customer.reward_redemptions.created',
  'customer.reward_redemptions.pending',
  'customer.reward_redemptions.completed',
  'customer.reward_redemptions.rolledback',
  'customer.loyalty.updated',
  'customer.loyalty.tier.upgraded',
  'customer.loyalty.tier.downgraded',
  'customer.loyalty.tier.prolonged',
  'customer.loyalty.tier.expiration.changed',
  'customer.loyalty.tier.joined',
  'customer.loyalty.tier.left',
] as const;

/**
 * Names the reference's activity items may carry but its `type` filter does not list
 * (voucherify-facts 1.12). They can be emitted and appear in the feed; filtering by them is 400,
 * as the reference's enum of that filter defines its values.
 */
export const FEED_ONLY_EVENT_TYPES = [
  'customer.voucher.loyalty_card.pending_points.activated',
  'customer.voucher.loyalty_card.pending_points.added',
  'customer.voucher.loyalty_card.pending_points.canceled',
  'customer.voucher.loyalty_card.pending_points.updated',
  'customer.voucher.loyalty_card.points_activated',
  'customer.holder.assignment.created',
  'customer.holder.assignment.deleted',
] as const;

export type FilterableEventType = (typeof FILTERABLE_EVENT_TYPES)[number];
export type CustomerEventType = FilterableEventType | (typeof FEED_ONLY_EVENT_TYPES)[number];

const FILTERABLE = new Set<string>(FILTERABLE_EVENT_TYPES);
const ALL = new Set<string>([...FILTERABLE_EVENT_TYPES, ...FEED_ONLY_EVENT_TYPES]);

export const isFilterableEventType = (value: string): value is FilterableEventType => FILTERABLE.has(value);
export const isCustomerEventType = (value: string): value is CustomerEventType => ALL.has(value);

export { CAMPAIGN_TYPES, type CampaignType } from '../../lib/enums.js';

export const EVENT_CATEGORIES = ['ACTION', 'EFFECT'] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

/**
 * The category an event gets unless its emitter says otherwise. An ACTION is something done
 * by or for the customer through the API (created, redeemed, ordered...); an EFFECT is what the
 * engine did in consequence (points and balances changed, rewards, tiers, segments, messages).
 */
const EFFECT_PREFIXES = [
  'customer.rewarded',
  'customer.voucher.',
  'customer.loyalty.',
  'customer.segment.',
  'customer.holder.',
  'customer.reward_redemptions.',
  ...MESSAGING_CHANNELS.map((c) => `customer.${c}.`),
];

export const defaultCategoryOf = (type: CustomerEventType): EventCategory =>
  EFFECT_PREFIXES.some((prefix) => type.startsWith(prefix)) ? 'EFFECT' : 'ACTION';
