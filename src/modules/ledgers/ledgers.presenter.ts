import { giftKind, loyaltyCardKind } from '../vouchers/index.js';
import { NEVER_EXPIRES, isPointsType } from './ledger.types.js';
import type { CardFields, LedgerEntryRow } from './ledgers.repository.js';
import type { PointsBucketRow } from './points-buckets.repository.js';

export type BalanceType = 'loyalty_card' | 'gift_voucher';

/**
 * The balance object (the answer of the reference's "Adjust Loyalty Card Balance") of one ledger row, exactly as the balance endpoints answer
 * it: the official client compares it for equality, so nothing more. `field` is what the
 * endpoint calls the change (`points` on the loyalty paths, `amount` on /vouchers/{code}).
 */
export function presentBalance(entry: LedgerEntryRow, field: 'points' | 'amount') {
  return {
    [field]: entry.delta,
    total: entry.total,
    balance: entry.balance,
    type: balanceTypeOf(entry),
    object: 'balance' as const,
    related_object: { type: 'voucher' as const, id: entry.voucher_id },
    operation_type: entry.operation_type,
  } as {
    points?: number;
    amount?: number;
    total: number;
    balance: number;
    type: BalanceType;
    object: 'balance';
    related_object: { type: 'voucher'; id: string };
    operation_type: string;
  };
}

const balanceTypeOf = (entry: Pick<LedgerEntryRow, 'type'>): BalanceType =>
  isPointsType(entry.type) ? 'loyalty_card' : 'gift_voucher';

const idOnly = (id: string | null) => (id === null ? {} : { id });

/** A ledger row as the reference's VoucherTransaction / LoyaltyCardTransaction. */
export function presentTransaction(entry: LedgerEntryRow) {
  const type = balanceTypeOf(entry);
  const extra = entry.details === null ? {} : (JSON.parse(entry.details) as Record<string, Record<string, unknown>>);
  const related = (key: string, id: string | null) =>
    id === null ? {} : { [key]: { ...idOnly(id), ...(extra[key] ?? {}) } };
  return {
    id: entry.id,
    source_id: entry.source_id,
    voucher_id: entry.voucher_id,
    campaign_id: entry.campaign_id,
    source: entry.source,
    reason: entry.reason,
    type: entry.type,
    details: {
      balance: {
        type,
        total: entry.total,
        object: 'balance',
        [type === 'loyalty_card' ? 'points' : 'amount']: entry.delta,
        balance: entry.balance,
        // The reference's VoucherBalance: a change by hand is MANUAL, one the engine makes AUTOMATIC.
        operation_type: entry.operation_type,
        related_object: { id: entry.voucher_id, type: 'voucher' },
      },
      ...related('order', entry.order_id),
      ...related('redemption', entry.redemption_id),
      ...related('rollback', entry.rollback_id),
      ...related('reward', entry.reward_id),
      ...related('earning_rule', entry.earning_rule_id),
      ...related('pending_points', entry.pending_points_id),
      ...Object.fromEntries(Object.entries(extra).filter(([key]) => !RELATED_KEYS.has(key))),
    },
    related_transaction_id: entry.related_transaction_id,
    created_at: entry.created_at,
  };
}

const RELATED_KEYS = new Set(['order', 'redemption', 'rollback', 'reward', 'earning_rule', 'pending_points']);

export type TransactionObject = ReturnType<typeof presentTransaction>;

/** A points bucket as the reference's LoyaltyPointsBucket (no expires_at when it never expires). */
export const presentBucket = (bucket: PointsBucketRow) => ({
  id: bucket.id,
  voucher_id: bucket.voucher_id,
  campaign_id: bucket.campaign_id,
  bucket: { total_points: bucket.total_points },
  status: bucket.status,
  ...(bucket.expires_on === NEVER_EXPIRES ? {} : { expires_at: bucket.expires_on }),
  created_at: bucket.created_at,
  ...(bucket.updated_at === null ? {} : { updated_at: bucket.updated_at }),
  object: 'loyalty_points_bucket' as const,
});

/** The card as events carry it: its code, campaign and its kind's block (as GET /v1/vouchers/{code} answers it). */
export const presentCard = (card: CardFields) => ({
  id: card.id,
  code: card.code,
  type: card.type,
  campaign_id: card.campaign_id,
  ...(card.type === 'GIFT_VOUCHER'
    ? { gift: giftKind.present(card) }
    : { loyalty_card: loyaltyCardKind.present(card) }),
});
