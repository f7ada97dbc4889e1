import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkRedeemable,
  type CheckContext,
} from '../../../src/modules/redemptions/pipeline/redeemable-check.rules.js';
import type { LoadedRedeemable } from '../../../src/modules/redemptions/pipeline/redeemable-load.service.js';
import type { OrderObject } from '../../../src/modules/orders/orders.presenter.js';
import type { VoucherRow } from '../../../src/modules/vouchers/vouchers.service.js';

/**
 * The check stage, table by table: which failure code each state of a voucher gives
 * (voucherify-facts 2.9), at a fixed time (Monday 2026-03-02 12:00 UTC), with and without an order.
 */
const NOW = '2026-03-02T12:00:00.000Z';
const voucher = (fields: Partial<VoucherRow>): VoucherRow => ({
  seq: 1,
  id: 'v_1',
  code: 'C',
  campaign_id: null,
  category_id: null,
  type: 'DISCOUNT_VOUCHER',
  discount: JSON.stringify({ type: 'PERCENT', percent_off: 10 }),
  gift_amount: null,
  gift_subtracted_amount: null,
  gift_balance: null,
  gift_effect: null,
  loyalty_points: null,
  loyalty_balance: null,
  loyalty_next_expiration_date: null,
  loyalty_next_expiration_points: null,
  loyalty_pending_points: null,
  loyalty_expired_points: null,
  loyalty_subtracted_points: null,
  start_date: null,
  expiration_date: null,
  validity_timeframe: null,
  validity_day_of_week: null,
  validity_hours: null,
  active: 1,
  additional_info: null,
  metadata: '{}',
  is_referral_code: 0,
  holder_id: null,
  referrer_id: null,
  redemption_quantity: null,
  redeemed_quantity: 0,
  redeemed_points: 0,
  publish_count: 0,
  created_at: NOW,
  updated_at: null,
  campaign_name: null,
  reserved_quantity: 0,
  reserved_credits: 0,
  reserved_points: 0,
  ...fields,
});
const order = (amount: number, items = 0) =>
  ({
    amount,
    items: Array.from({ length: items }, () => ({ object: 'order_item', id: 'i' })),
  }) as unknown as OrderObject;
const loaded = (row: VoucherRow | null, body: Partial<LoadedRedeemable['body']> = {}): LoadedRedeemable => ({
  index: 0,
  body: { object: 'voucher', id: 'C', ...body },
  voucher: row,
  tier: null,
  reward: null,
  discount: null,
  category: null,
  unitPrices: {},
});
const ctx = (fields: Partial<CheckContext> = {}): CheckContext => ({
  now: NOW,
  customerId: 'cust_1',
  order: order(1000, 1),
  ...fields,
});

describe('checkRedeemable', () => {
  const table: Array<[string, LoadedRedeemable, CheckContext, string | null]> = [
    ['a valid discount voucher', loaded(voucher({})), ctx(), null],
    ['an unknown code', loaded(null), ctx(), 'resource_not_found'],
    [
      'a disabled voucher, even in its period',
      loaded(voucher({ active: 0, start_date: '2030-01-01T00:00:00.000Z' })),
      ctx(),
      'voucher_disabled',
    ],
    ['before its start', loaded(voucher({ start_date: '2026-03-02T12:00:00.001Z' })), ctx(), 'voucher_not_active'],
    ['after its end', loaded(voucher({ expiration_date: '2026-03-02T11:59:59.999Z' })), ctx(), 'voucher_expired'],
    ['on its last millisecond', loaded(voucher({ expiration_date: NOW })), ctx(), null],
    ['on another day of the week', loaded(voucher({ validity_day_of_week: '[0,2]' })), ctx(), 'voucher_not_active_now'],
    ['on its day of the week', loaded(voucher({ validity_day_of_week: '[1]' })), ctx(), null],
    [
      'outside its hours',
      loaded(
        voucher({
          validity_hours: JSON.stringify({
            daily: [{ start_time: '13:00', expiration_time: '14:00', days_of_week: [1] }],
          }),
        }),
      ),
      ctx(),
      'voucher_not_active_now',
    ],
    [
      'with its quantity used up',
      loaded(voucher({ redemption_quantity: 2, redeemed_quantity: 2 })),
      ctx(),
      'quantity_exceeded',
    ],
    ['with one redemption left', loaded(voucher({ redemption_quantity: 2, redeemed_quantity: 1 })), ctx(), null],
    ['without an order', loaded(voucher({})), ctx({ order: null }), 'missing_order'],
    ['with an empty order', loaded(voucher({})), ctx({ order: order(0) }), 'invalid_order'],
    [
      'an item effect on an order without items',
      loaded(
        voucher({
          discount: JSON.stringify({ type: 'AMOUNT', amount_off: 1, effect: 'APPLY_TO_ITEMS_PROPORTIONALLY' }),
        }),
      ),
      ctx({ order: order(500) }),
      'missing_order_items',
    ],
    [
      'gift credits beyond the balance',
      loaded(voucher({ type: 'GIFT_VOUCHER', discount: null, gift_balance: 100 }), { gift: { credits: 101 } }),
      ctx(),
      'gift_amount_exceeded',
    ],
    [
      'gift credits within the balance',
      loaded(voucher({ type: 'GIFT_VOUCHER', discount: null, gift_balance: 100 }), { gift: { credits: 100 } }),
      ctx(),
      null,
    ],
    [
      'an empty gift card',
      loaded(voucher({ type: 'GIFT_VOUCHER', discount: null, gift_balance: 0 })),
      ctx(),
      'gift_amount_exceeded',
    ],
    [
      'a loyalty card without a customer',
      loaded(voucher({ type: 'LOYALTY_CARD', discount: null, loyalty_balance: 10 }), { reward: { id: 'rew_1' } }),
      ctx({ customerId: null }),
      'missing_customer',
    ],
    [
      'a loyalty card without its reward',
      loaded(voucher({ type: 'LOYALTY_CARD', discount: null, loyalty_balance: 10 }), { reward: { id: 'rew_1' } }),
      ctx(),
      'missing_reward',
    ],
  ];
  for (const [name, redeemable, context, expected] of table) {
    it(`${name}: ${expected ?? 'valid'}`, () => {
      assert.equal(checkRedeemable(redeemable, context)?.key ?? null, expected);
    });
  }
});
