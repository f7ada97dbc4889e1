import { presentValidity } from '../../engine/validity/index.js';
import { categoriesOf, type CategoryView } from '../categories/index.js';
import { assignmentsList, type RuleAssignmentView } from '../validation-rules/index.js';
import { presentKindBlocks } from './kinds/kinds.rules.js';
import { assetOf } from './voucher-assets.rules.js';
import type { VoucherRow } from './vouchers.repository.js';

/**
 * The objects whose rule assignments a voucher shows: its own and its campaign's (a voucher
 * generated in a campaign with a rule lists the campaign's assignment, as the reference does).
 */
export const assignmentHolders = (rows: ReadonlyArray<Pick<VoucherRow, 'id' | 'campaign_id'>>): string[] =>
  rows.flatMap((row) => (row.campaign_id === null ? [row.id] : [row.id, row.campaign_id]));

/** The voucher as the API answers it (the reference's Voucher object), with the validation rules assigned to it and to its campaign. */
export function presentVoucher(
  row: VoucherRow,
  categories: Map<string, CategoryView>,
  assignments: Map<string, RuleAssignmentView[]>,
) {
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
    ...presentKindBlocks(row),
    ...presentValidity(row),
    active: row.active === 1,
    additional_info: row.additional_info,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    assets: { qr: assetOf('qr', row.code), barcode: assetOf('barcode', row.code) },
    is_referral_code: row.is_referral_code === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    // A voucher nobody holds leaves holder_id out: the reference's recorded vouchers never answer it null.
    ...(row.holder_id === null ? {} : { holder_id: row.holder_id }),
    referrer_id: row.referrer_id,
    object: 'voucher' as const,
    publish: { object: 'list' as const, count: row.publish_count, url: `${path}/publications?page=1&limit=10` },
    redemption: {
      quantity: row.redemption_quantity,
      redeemed_quantity: row.redeemed_quantity,
      // Points are a loyalty card's: the reference answers null for any other voucher.
      redeemed_points: row.type === 'LOYALTY_CARD' ? row.redeemed_points : null,
      object: 'list' as const,
      url: `${path}/redemptions?page=1&limit=10`,
    },
    categories: categoriesOf(row.category_id, categories),
    validation_rules_assignments: assignmentsList([
      ...(assignments.get(row.id) ?? []),
      ...(row.campaign_id === null ? [] : (assignments.get(row.campaign_id) ?? [])),
    ]),
  };
}

export type VoucherView = ReturnType<typeof presentVoucher>;
