/**
 * The event types a webhook may subscribe to: the reference's list (the webhook object's
 * `events` enum), and the customer's tier moves. The reference spells three of them "aded" in
 * its enum and "added" in its examples and event pages; promo stores and sends "added" and
 * takes either spelling.
 */
export const WEBHOOK_EVENT_TYPES = [
  'business_validation_rule.assignment.created',
  'business_validation_rule.assignment.deleted',
  'business_validation_rule.created',
  'business_validation_rule.deleted',
  'business_validation_rule.updated',
  'campaign.created',
  'campaign.deleted',
  'campaign.disabled',
  'campaign.enabled',
  'campaign.earning_rule.assigned',
  'campaign.earning_rule.deleted',
  'campaign.earning_rule.disabled',
  'campaign.earning_rule.enabled',
  'campaign.earning_rule.updated',
  'campaign.loyalty_tier.created',
  'campaign.loyalty_tier.deleted',
  'campaign.loyalty_tier.updated',
  'campaign.promotion_stack.created',
  'campaign.promotion_stack.updated',
  'campaign.promotion_tier.created',
  'campaign.promotion_tier.deleted',
  'campaign.promotion_tier.disabled',
  'campaign.promotion_tier.enabled',
  'campaign.promotion_tier.updated',
  'campaign.referral_tier.created',
  'campaign.referral_tier.deleted',
  'campaign.referral_tier.updated',
  'campaign.reward.assignment.created',
  'campaign.reward.assignment.deleted',
  'campaign.reward.assignment.updated',
  'campaign.updated',
  'campaign.vouchers.added',
  'campaign.vouchers.generation.completed',
  'campaign.vouchers.generation.failed',
  'campaign.vouchers.generation.started',
  'customer.confirmed',
  'customer.created',
  'customer.deleted',
  // Not in the enum: the real API sends tier moves to Distributions webhooks, in the same
  // v2024-01-01 envelope; promo has no Distributions, so a webhook subscribes to them here.
  'customer.loyalty.tier.downgraded',
  'customer.loyalty.tier.joined',
  'customer.loyalty.tier.left',
  'customer.loyalty.tier.prolonged',
  'customer.loyalty.tier.upgraded',
  'customer.rewarded',
  'customer.rewarded.loyalty_points',
  'publication.succeeded',
  'redemption.failed',
  'redemption.rollback.failed',
  'redemption.rollback.succeeded',
  'redemption.succeeded',
  'voucher.created',
  'voucher.deleted',
  'voucher.disabled',
  'voucher.enabled',
  'voucher.gift.balance_added',
  'voucher.gift.transaction.created',
  'voucher.loyalty_card.pending_points.activated',
  'voucher.loyalty_card.pending_points.added',
  'voucher.loyalty_card.pending_points.canceled',
  'voucher.loyalty_card.pending_points.updated',
  'voucher.loyalty_card.points_added',
  'voucher.loyalty_card.points_expired',
  'voucher.loyalty_card.transaction.created',
  'voucher.published',
  'voucher.updated',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The types promo sends today (docs/webhooks.md): the others are accepted and never sent. */
export const SENT_EVENT_TYPES: readonly WebhookEventType[] = [
  'redemption.succeeded',
  'redemption.rollback.succeeded',
  'voucher.gift.balance_added',
  'voucher.loyalty_card.points_added',
  'customer.rewarded',
  'customer.rewarded.loyalty_points',
  'publication.succeeded',
  'campaign.vouchers.generation.completed',
  'campaign.vouchers.generation.failed',
  'customer.loyalty.tier.joined',
  'customer.loyalty.tier.left',
  'customer.loyalty.tier.upgraded',
  'customer.loyalty.tier.downgraded',
  'customer.loyalty.tier.prolonged',
];

/** The reference enum's spelling of a type, as promo stores it. */
export const normalEventType = (type: string): string =>
  type.endsWith('_aded') || type.endsWith('.aded') ? `${type.slice(0, -4)}added` : type;

const KNOWN = new Set<string>(WEBHOOK_EVENT_TYPES);
export const isWebhookEventType = (type: string): type is WebhookEventType => KNOWN.has(normalEventType(type));
