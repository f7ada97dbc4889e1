/**
 * The ledger's transaction types (the reference's VoucherTransaction.type) and what each does
 * to the voucher's cached fields: which way the balance moves, and which lifetime counter
 * moves with it. The cached fields are sums of the rows by these rules, so a test can
 * recompute every one of them from the ledger:
 *   loyalty_card.points = additions; expired_points = expirations; subtracted_points =
 *   removals; redemption.redeemed_points = redemptions - refunds; balance = sum of deltas.
 *   gift.amount = additions; subtracted_amount = removals; balance = sum of deltas.
 */
export const POINTS_TYPES = [
  'POINTS_ADDITION',
  'POINTS_REMOVAL',
  'POINTS_EXPIRATION',
  'PENDING_POINTS_ACTIVATION',
  'POINTS_ACCRUAL',
  'POINTS_REDEMPTION',
  'POINTS_REFUND',
  'POINTS_TRANSFER_IN',
  'POINTS_TRANSFER_OUT',
] as const;
export const CREDITS_TYPES = ['CREDITS_ADDITION', 'CREDITS_REMOVAL', 'CREDITS_REDEMPTION', 'CREDITS_REFUND'] as const;

export type PointsType = (typeof POINTS_TYPES)[number];
export type CreditsType = (typeof CREDITS_TYPES)[number];
export type LedgerEntryType = PointsType | CreditsType;
export type LedgerOperationType = 'MANUAL' | 'AUTOMATIC';

export type CounterColumn =
  | 'loyalty_points'
  | 'loyalty_subtracted_points'
  | 'loyalty_expired_points'
  | 'redeemed_points'
  | 'gift_amount'
  | 'gift_subtracted_amount';

export interface TypeEffect {
  /** +1: the balance grows by the amount; -1: it shrinks. */
  sign: 1 | -1;
  /** The lifetime counter that moves with the balance, and which way (or none). */
  counter: { column: CounterColumn; sign: 1 | -1 } | null;
}

const credit = (column: CounterColumn | null, counterSign: 1 | -1 = 1): TypeEffect => ({
  sign: 1,
  counter: column ? { column, sign: counterSign } : null,
});
const debit = (column: CounterColumn | null, counterSign: 1 | -1 = 1): TypeEffect => ({
  sign: -1,
  counter: column ? { column, sign: counterSign } : null,
});

export const TYPE_EFFECTS: Record<LedgerEntryType, TypeEffect> = {
  POINTS_ADDITION: credit('loyalty_points'),
  POINTS_ACCRUAL: credit('loyalty_points'),
  PENDING_POINTS_ACTIVATION: credit('loyalty_points'),
  POINTS_TRANSFER_IN: credit('loyalty_points'),
  POINTS_REFUND: credit('redeemed_points', -1),
  POINTS_REMOVAL: debit('loyalty_subtracted_points'),
  POINTS_TRANSFER_OUT: debit('loyalty_subtracted_points'),
  POINTS_REDEMPTION: debit('redeemed_points'),
  POINTS_EXPIRATION: debit('loyalty_expired_points'),
  CREDITS_ADDITION: credit('gift_amount'),
  CREDITS_REFUND: credit(null),
  CREDITS_REMOVAL: debit('gift_subtracted_amount'),
  CREDITS_REDEMPTION: debit(null),
};

export const isPointsType = (type: string): type is PointsType => (POINTS_TYPES as readonly string[]).includes(type);

export type PointsCreditType =
  | 'POINTS_ADDITION'
  | 'POINTS_ACCRUAL'
  | 'PENDING_POINTS_ACTIVATION'
  | 'POINTS_TRANSFER_IN'
  | 'POINTS_REFUND';
export type PointsDebitType = 'POINTS_REMOVAL' | 'POINTS_TRANSFER_OUT' | 'POINTS_REDEMPTION';
export type CreditsCreditType = 'CREDITS_ADDITION' | 'CREDITS_REFUND';
export type CreditsDebitType = 'CREDITS_REMOVAL' | 'CREDITS_REDEMPTION';

/** The bucket date of points that never expire: it sorts after every real date. */
export const NEVER_EXPIRES = '9999-12-31';
