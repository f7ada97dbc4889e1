import type { Deps } from '../../app/deps.js';
import { notFound } from '../../lib/errors.js';
import { findVoucherRow } from '../vouchers/vouchers.service.js';
import { presentRedemption } from './redemptions.presenter.js';
import { countVoucherRedemptions, listVoucherRedemptions } from './redemptions.repository.js';

/** The most entries one answer holds: a gift card's millions of redemptions never load at once. */
const MAX_ENTRIES = 100;

/**
 * GET /v1/vouchers/{code}/redemption (VouchersRedemptionGetResponseBody): the voucher's
 * redemption quantity and count, and every redemption record of it, newest first, as the
 * reference's `redemption_entries` list (its `url` is the voucher's redemption.url). The
 * reference documents no paging here: the newest MAX_ENTRIES are answered, `total` counts all.
 */
export async function getVoucherRedemptions(deps: Pick<Deps, 'db'>, code: string) {
  const voucher = await findVoucherRow(deps.db, code);
  if (!voucher) throw notFound('voucher', code);
  const rows = await listVoucherRedemptions(deps.db, voucher.id, MAX_ENTRIES);
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
