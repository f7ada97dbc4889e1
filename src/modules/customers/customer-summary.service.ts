import { AppError, notFound } from '../../lib/errors.js';
import * as repo from './customer-summary.repository.js';
import type { Db, Tx } from '../../db/engine.js';

/**
 * Keeps a customer's summary, loyalty and referrals blocks true. Orders, redemptions and
 * loyalty call these inside the transaction of their own change, so the blocks change exactly
 * when the cause commits. Each is one guarded statement per row it touches. Every change sets
 * the customer's updated_at to `at`, but an order's figures given `at: null` keep it (an
 * import's history: docs/deviations.md "An order import is history").
 */

export type CampaignRef = repo.CampaignRef;

/** No row came back: the customer is missing (404) or a sum would fall below zero (a bug). */
async function refused(trx: Tx, customerId: string, what: string): Promise<never> {
  if (!(await repo.customerExists(trx, customerId))) throw notFound('customer', customerId);
  throw new AppError(
    'customer_summary_out_of_balance',
    `${what} would take a total of customer ${customerId} below zero`,
  );
}

function checkInteger(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    const what = min === 0 ? 'a non-negative integer' : 'an integer';
    throw new AppError('invalid_summary_change', `${name} must be ${what}, got ${value}`);
  }
}

const checkAmount = (name: string, value: number): void => checkInteger(name, value, 0);

/** An order that counts (status PAID or FULFILLED) joins summary.orders. */
export async function recordOrderInSummary(
  trx: Tx,
  input: { customer_id: string; amount: number; order_date: string; at: string | null },
): Promise<void> {
  checkAmount('amount', input.amount);
  const row = await repo.creditOrder(trx, {
    customerId: input.customer_id,
    amount: input.amount,
    orderDate: input.order_date,
    at: input.at,
  });
  if (!row) throw notFound('customer', input.customer_id);
}

/** A new customer's first order that counts, for its insert: how an import stores a new customer's summary. */
export interface FirstOrder {
  amount: number;
  date: string;
}

/** The summary.orders columns of a new customer whose first order counts (recordOrderInSummary's figures from zero). */
export function firstOrderColumns(first: FirstOrder) {
  checkAmount('amount', first.amount);
  return {
    orders_total_amount: first.amount,
    orders_total_count: 1,
    orders_last_order_amount: first.amount,
    orders_last_order_date: first.date,
  };
}

/**
 * An order that no longer counts (canceled after being paid, or an amount being replaced)
 * leaves the totals. last_order_* stay as they are: the caller, which knows the customer's
 * other orders, sets them with setLastOrderInSummary.
 */
export async function withdrawOrderFromSummary(
  trx: Tx,
  input: { customer_id: string; amount: number; at: string | null },
): Promise<void> {
  checkAmount('amount', input.amount);
  const row = await repo.debitOrder(trx, { customerId: input.customer_id, amount: input.amount, at: input.at });
  if (!row) await refused(trx, input.customer_id, 'Withdrawing an order');
}

/**
 * last_order_amount and last_order_date describe this order (the latest that still counts),
 * or nothing (null: no order counts any more). Orders call it after withdrawing an order.
 */
export async function setLastOrderInSummary(
  trx: Tx,
  input: { customer_id: string; last: { amount: number; date: string } | null; at: string | null },
): Promise<void> {
  if (input.last) checkAmount('amount', input.last.amount);
  const row = await repo.setLastOrder(trx, input.customer_id, input.last, input.at);
  if (!row) throw notFound('customer', input.customer_id);
}

export interface RedemptionSummaryInput {
  customer_id: string;
  result: 'SUCCESS' | 'FAILURE';
  /** How many redemptions of this result (a stack's children: one statement); 1 unless given. */
  count?: number;
  /** Gift card credits the redemption used (successes only). */
  gift_amount?: number;
  /** Loyalty points the redemption used (successes only). */
  loyalty_points?: number;
  at: string;
}

function redemptionCount(input: RedemptionSummaryInput): repo.RedemptionCount {
  const giftAmount = input.gift_amount ?? 0;
  const loyaltyPoints = input.loyalty_points ?? 0;
  checkAmount('gift_amount', giftAmount);
  checkAmount('loyalty_points', loyaltyPoints);
  const count = input.count ?? 1;
  checkInteger('count', count, 1);
  return {
    customerId: input.customer_id,
    succeeded: input.result === 'SUCCESS',
    count,
    giftAmount,
    loyaltyPoints,
    at: input.at,
  };
}

/** A redemption (success or failure), or `count` of them with their summed amounts, counted in summary.redemptions. */
export async function recordRedemptionInSummary(trx: Tx, input: RedemptionSummaryInput): Promise<void> {
  const row = await repo.creditRedemption(trx, redemptionCount(input));
  if (!row) throw notFound('customer', input.customer_id);
}

/** A redemption rollback: a successful one gives back the gift credits and points it counted. */
export async function recordRollbackInSummary(trx: Tx, input: RedemptionSummaryInput): Promise<void> {
  const row = await repo.creditRollback(trx, redemptionCount(input));
  if (!row) await refused(trx, input.customer_id, 'Rolling back a redemption');
}

/** A gift card the customer holds gained (delta > 0) or lost (delta < 0) balance. */
export async function adjustGiftBalanceInSummary(
  trx: Tx,
  input: { customer_id: string; delta: number; at: string },
): Promise<number> {
  const row = await repo.shiftGiftBalance(trx, input.customer_id, input.delta, input.at);
  if (!row) return refused(trx, input.customer_id, 'A gift balance change');
  return row.gift_amount_to_go;
}

/**
 * Loyalty points the customer gained (points > 0) or lost (points < 0: spent, expired,
 * removed) in a campaign. Moves loyalty.points, loyalty.campaigns[name].points and
 * summary.redemptions.loyalty_card.points_to_go together. Returns the new loyalty.points.
 */
export async function addLoyaltyPoints(
  trx: Tx,
  input: { customer_id: string; campaign: CampaignRef; points: number; at: string },
): Promise<number> {
  checkInteger('points', input.points, Number.MIN_SAFE_INTEGER);
  const row = await repo.shiftLoyaltyPoints(trx, input.customer_id, input.points, input.at);
  if (!row) return refused(trx, input.customer_id, `Removing ${-input.points} points`);
  const line =
    input.points >= 0
      ? await repo.addToCampaign(trx, input.customer_id, input.campaign, input.points, 0)
      : await repo.takeFromCampaign(trx, input.customer_id, input.campaign, -input.points);
  if (!line)
    return refused(trx, input.customer_id, `Removing ${-input.points} points of campaign ${input.campaign.id}`);
  return row.loyalty_points;
}

/** The customer's tier in a loyalty campaign (null: no tier). */
export async function setLoyaltyTier(
  trx: Tx,
  input: { customer_id: string; campaign: CampaignRef; tier_id: string | null; at: string },
): Promise<void> {
  if (!(await repo.touchCustomer(trx, input.customer_id, input.at))) throw notFound('customer', input.customer_id);
  await repo.setCampaignTier(trx, input.customer_id, input.campaign, input.tier_id);
}

/**
 * A customer was referred: the referee's referrals gain an entry, the referrer's
 * loyalty.referred_customers (overall and in the campaign) grow by one.
 */
export async function recordReferral(
  trx: Tx,
  input: {
    customer_id: string;
    referrer_id: string;
    campaign: CampaignRef;
    related_object_id: string;
    related_object_type: string;
    date: string;
    at: string;
  },
): Promise<void> {
  if (!(await repo.touchCustomer(trx, input.customer_id, input.at))) throw notFound('customer', input.customer_id);
  if (!(await repo.incrementReferredCustomers(trx, input.referrer_id, input.at)))
    throw notFound('customer', input.referrer_id);
  await repo.insertReferral(trx, {
    customer_id: input.customer_id,
    campaign_id: input.campaign.id,
    referrer_id: input.referrer_id,
    related_object_id: input.related_object_id,
    related_object_type: input.related_object_type,
    date: input.date,
  });
  await repo.addToCampaign(trx, input.referrer_id, input.campaign, 0, 1);
}
