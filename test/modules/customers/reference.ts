import { assertMatchesReference, assertMatchesSchema } from '../../support/openapi.js';

/**
 * Contract checks for the customer operations against the reference. The list and activity
 * answers are checked whole; each activity item's `data.data` is also checked against the
 * one event schema its `type` names (EventCustomerCreated for customer.created, ...).
 */
type Json = unknown;

/** Event types whose schema name does not follow from the type name. */
const IRREGULAR_EVENT_SCHEMAS: Record<string, string> = {
  'customer.activecampaign.sent': 'EventCustomerActiveCampaignSent',
  'customer.activecampaign.recovered': 'EventCustomerActiveCampaignRecovered',
  'customer.activecampaign.failed': 'EventCustomerActiveCampaignFailed',
  'customer.voucher.gift.balance_added': 'EventCustomerGiftVoucherBalanceAdded',
  'customer.voucher.loyalty_card.points_expired': 'EventCustomerVouchersLoyaltyPointsExpired',
  'customer.voucher.loyalty_card.points_activated': 'EventCustomerLoyaltyCardPointsAdded',
  'customer.reward_redemptions.rolledback': 'EventCustomerRewardRedemptionsRolledBack',
};

/** customer.order.paid -> EventCustomerOrderPaid; customer.voucher.loyalty_card.x -> EventCustomerLoyaltyCardX */
export const eventSchemaName = (type: string): string =>
  IRREGULAR_EVENT_SCHEMAS[type] ??
  `Event${type
    .replace(/^customer\.voucher\.loyalty_card\./, 'customer.loyalty_card.')
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`;

/** Asserts that an answer of GET /v1/customers or .../activity matches the reference. */
export function assertCustomerReference(method: string, path: string, status: number, body: Json): void {
  assertMatchesReference(method, path, status, body);
  if (path !== '/v1/customers/{customerId}/activity' || status !== 200) return;
  for (const item of (body as { data: Array<{ type: string; data: { data: Json } }> }).data) {
    assertMatchesSchema(eventSchemaName(item.type), item.data.data);
  }
}

/** Asserts that a customer object (GET/POST/PUT answer) matches CustomerWithSummaryLoyaltyReferrals. */
export function assertCustomerObject(body: Json): void {
  assertMatchesSchema('CustomerWithSummaryLoyaltyReferrals', body);
}
