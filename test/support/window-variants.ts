import { REDEMPTION_ORDER_FIELDS } from '../../src/modules/redemptions/list/redemptions-list.schemas.js';
import { VOUCHER_ORDER_FIELDS } from '../../src/modules/vouchers/vouchers.schemas.js';
import { combine, condition, DATE, each, orders, VOUCHER_CATEGORY, type Fixture } from './list-variants.js';

/**
 * List variants whose filters no index serves (checked in the bounded window of
 * src/db/filter-window.ts), by list table: every order with filters alone, and by created_at
 * beside the indexed parameters.
 */
export function windowedVariants(f: Fixture): Record<'vouchers' | 'redemptions', string[]> {
  const voucherFilters = [
    condition('code', '$is_not', 'PLANS-STANDALONE'),
    {
      'filters[junction]': 'or',
      'filters[campaign_ids][conditions][$in][0]': f.campaign.id,
      'filters[campaign_ids][conditions][$in][1]': 'camp_x',
      ...condition('code', '$starts_with', 'PL'),
    },
    { ...condition('category_id', '$is', VOUCHER_CATEGORY), ...condition('expiration_date', '$has_value') },
  ];
  const redemptionFilters = [
    condition('voucher_code', '$is_not', 'PLANS-STANDALONE'),
    {
      'filters[junction]': 'or',
      ...condition('failure_code', '$is', 'voucher_expired'),
      ...condition('object', '$is', 'redemption_rollback'),
    },
    {
      'filters[voucher_code][conditions][$in][0]': 'A',
      'filters[voucher_code][conditions][$in][1]': 'B',
      ...condition('user_login', '$is_not', 'x'),
    },
  ];
  const dates = [{}, { 'created_at[after]': DATE }];
  return {
    vouchers: [
      ...combine('/v1/vouchers', { order: each('order', orders(VOUCHER_ORDER_FIELDS)), filter: voucherFilters, dates }),
      ...combine('/v1/vouchers', {
        order: each('order', orders(['created_at'])),
        plain: [{ campaign: f.campaign.name }, { customer: 'c1' }, { category: VOUCHER_CATEGORY }],
        filter: [condition('code', '$contains', 'S'), condition('type', '$not_in', 'GIFT_VOUCHER')],
      }),
    ],
    redemptions: [
      ...combine('/v1/redemptions', {
        order: each('order', orders(REDEMPTION_ORDER_FIELDS)),
        filter: redemptionFilters,
        dates,
      }),
      ...combine('/v1/redemptions', {
        order: each('order', orders(['created_at'])),
        plain: [
          { customer: 'c1' },
          { campaign: 'Plans', result: 'SUCCESS' },
          condition('customer_id', '$is', f.customerId),
        ],
        filter: [condition('voucher_code', '$not_contain', 'X'), condition('campaign_name', '$ends_with', 's')],
      }),
    ],
  };
}
