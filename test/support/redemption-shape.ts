import { assertMatchesSchema, withoutNulls } from './openapi.js';

/**
 * A redemption record against the reference's schema. Its top-level fields the reference marks
 * required and nullable (`redemption`, `order`, `customer`...) stay as answered; nested blocks
 * are checked without their nulls, as voucher answers are (the reference types a customer's
 * `name` or a voucher's `campaign` as plain strings that the real API answers as null).
 */
export function assertRedemptionMatches(body: object): void {
  const nested = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, value !== null && typeof value === 'object' ? withoutNulls(value) : value]));
  assertMatchesSchema((body as { object?: string }).object === 'redemption_rollback' ? 'RedemptionRollback' : 'Redemption', nested);
}
