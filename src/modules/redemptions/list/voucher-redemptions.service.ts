import type { Deps } from '../../../app/deps.js';
import { notFound } from '../../../lib/errors.js';
import { findVoucherRow } from '../../vouchers/index.js';
import { presentRedemption } from '../redemptions.presenter.js';
import { countVoucherRedemptions, listVoucherRedemptions } from '../redemptions.repository.js';

/** The most entries one answer holds: a gift card's millions of redemptions never load at once. */
const MAX_ENTRIES = 100;

/** Which of a voucher's redemption records, newest first, an answer holds. */
export interface EntriesPage {
  page: number;
  limit: number;
}

/**
 * GET /v1/vouchers/{code}/redemption (VouchersRedemptionGetResponseBody): the voucher's
 * redemption quantity and count, and its redemption records, newest first, as the reference's
 * `redemption_entries` list; `total` counts all. The reference documents no paging there: the
 * newest MAX_ENTRIES are answered. Its `url`, the voucher's own `redemption.url`
 * (`/redemptions?page=1&limit=10`), is served too, in the same shape, and it takes the `page`
 * and `limit` that url carries.
 */
export async function getVoucherRedemptions(
  deps: Pick<Deps, 'db'>,
  code: string,
  window: EntriesPage = { page: 1, limit: MAX_ENTRIES },
) {
  const voucher = await findVoucherRow(deps.db, code);
  if (!voucher) throw notFound('voucher', code);
  const rows = await listVoucherRedemptions(deps.db, voucher.id, window.limit, (window.page - 1) * window.limit);
  return {
    quantity: voucher.redemption_quantity,
    redeemed_quantity: voucher.redeemed_quantity,
    object: 'list',
    url: `/v1/vouchers/${encodeURIComponent(voucher.code)}/redemptions?page=1&limit=10`,
    data_ref: 'redemption_entries',
    total: await countVoucherRedemptions(deps.db, voucher.id),
    redemption_entries: rows.map(presentRedemption),
  };
}
