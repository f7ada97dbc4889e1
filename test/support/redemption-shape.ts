import { assertMatchesSchema, withoutNulls } from './openapi.js';

/**
 * A redemption record against the reference's schema. Its top-level fields the reference marks
 * required and nullable (`redemption`, `order`, `customer`...) stay as answered; nested blocks
 * are checked without their nulls, as voucher answers are (the reference types a customer's
 * `name` or a voucher's `campaign` as plain strings that the real API answers as null).
 */
export function assertRedemptionMatches(body: object): void {
  assertMatchesSchema(
    (body as { object?: string }).object === 'redemption_rollback' ? 'RedemptionRollback' : 'Redemption',
    nestedWithoutNulls(body),
  );
}

const nestedWithoutNulls = (body: object): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(body).map(([key, value]) => [
      key,
      value !== null && typeof value === 'object' ? withoutNulls(value) : value,
    ]),
  );

/**
 * A redeem answer as the reference's operation checks it: each redemption as
 * assertRedemptionMatches reads it (top-level nulls kept, nested ones dropped), the rest
 * without nulls.
 */
export function redeemAnswerForReference(
  body: { redemptions: object[]; parent_redemption: object } & Record<string, unknown>,
): unknown {
  const { redemptions, parent_redemption: parent, ...rest } = body;
  return {
    ...withoutNulls(rest),
    redemptions: redemptions.map(nestedWithoutNulls),
    parent_redemption: nestedWithoutNulls(parent),
  };
}
