import type { Generated } from 'kysely';

import type { VoucherType } from '../../lib/enums.js';

export type { VoucherType };

export interface VoucherTable {
  seq: Generated<number>;
  id: string;
  code: string;
  campaign_id: string | null;
  category_id: string | null;
  type: VoucherType;
  /** JSON discount; DISCOUNT_VOUCHER only. */
  discount: string | null;
  gift_amount: number | null;
  gift_subtracted_amount: number | null;
  gift_balance: number | null;
  gift_effect: string | null;
  loyalty_points: number | null;
  loyalty_balance: number | null;
  loyalty_next_expiration_date: string | null;
  loyalty_next_expiration_points: number | null;
  loyalty_pending_points: number | null;
  loyalty_expired_points: number | null;
  loyalty_subtracted_points: number | null;
  start_date: string | null;
  expiration_date: string | null;
  validity_timeframe: string | null;
  validity_day_of_week: string | null;
  validity_hours: string | null;
  active: number;
  additional_info: string | null;
  metadata: string;
  is_referral_code: number;
  holder_id: string | null;
  referrer_id: string | null;
  redemption_quantity: number | null;
  redeemed_quantity: number;
  /** Held by live session locks (sql/0020): counted by the guarded claims. */
  reserved_quantity: Generated<number>;
  reserved_credits: Generated<number>;
  reserved_points: Generated<number>;
  redeemed_points: number;
  publish_count: number;
  created_at: string;
  updated_at: string | null;
}

export interface VouchersTables {
  vouchers: VoucherTable;
}
