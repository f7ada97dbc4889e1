import { emptyAssignments } from '../campaigns/campaigns.presenter.js';
import type { CategoryView } from '../campaigns/categories.service.js';
import { presentValidity } from '../campaigns/validity.js';
import type { VoucherRow } from './vouchers.repository.js';

const asset = (kind: 'qr' | 'barcode', code: string) => {
  const id = Buffer.from(code, 'utf8').toString('base64url');
  return { id, url: `/v1/assets/${kind}/${id}` };
};

function giftOf(row: VoucherRow) {
  if (row.type !== 'GIFT_VOUCHER') return null;
  return { amount: row.gift_amount ?? 0, subtracted_amount: row.gift_subtracted_amount ?? 0, balance: row.gift_balance ?? 0, effect: row.gift_effect };
}

function loyaltyCardOf(row: VoucherRow) {
  if (row.type !== 'LOYALTY_CARD') return null;
  return {
    points: row.loyalty_points ?? 0,
    balance: row.loyalty_balance ?? 0,
    next_expiration_date: row.loyalty_next_expiration_date,
    next_expiration_points: row.loyalty_next_expiration_points ?? 0,
    pending_points: row.loyalty_pending_points ?? 0,
    expired_points: row.loyalty_expired_points ?? 0,
    subtracted_points: row.loyalty_subtracted_points ?? 0,
  };
}

/** The voucher as the API answers it (SPEC.md 2.6). */
export function presentVoucher(row: VoucherRow, categories: Map<string, CategoryView>) {
  const category = row.category_id === null ? undefined : categories.get(row.category_id);
  const path = `/v1/vouchers/${encodeURIComponent(row.code)}`;
  return {
    id: row.id,
    code: row.code,
    campaign: row.campaign_name,
    campaign_id: row.campaign_id,
    category: category?.name ?? null,
    category_id: row.category_id,
    type: row.type,
    discount: row.discount === null ? null : (JSON.parse(row.discount) as Record<string, unknown>),
    gift: giftOf(row),
    loyalty_card: loyaltyCardOf(row),
    ...presentValidity(row),
    active: row.active === 1,
    additional_info: row.additional_info,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    assets: { qr: asset('qr', row.code), barcode: asset('barcode', row.code) },
    is_referral_code: row.is_referral_code === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    holder_id: row.holder_id,
    referrer_id: row.referrer_id,
    object: 'voucher' as const,
    publish: { object: 'list' as const, count: row.publish_count, url: `${path}/publications?page=1&limit=10` },
    redemption: {
      quantity: row.redemption_quantity,
      redeemed_quantity: row.redeemed_quantity,
      redeemed_points: row.redeemed_points,
      object: 'list' as const,
      url: `${path}/redemptions?page=1&limit=10`,
    },
    categories: category ? [category] : [],
    validation_rules_assignments: emptyAssignments(),
  };
}

export type VoucherView = ReturnType<typeof presentVoucher>;
