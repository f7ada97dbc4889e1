import type { CustomerObject, SimpleCustomer } from '../customers/index.js';
import type { VoucherView } from '../vouchers/index.js';
import type { PublicationRow } from './publications.repository.js';

/**
 * A publication as the reference's list (ListPublicationsItemValidSingleVoucher, or its
 * failed form, or with several vouchers `vouchers` and no `voucher`) and the publication events show it. The customer is read from the customer's
 * row when presented (a customer deleted since shows its id only); the voucher is the snapshot
 * taken when it was given.
 */
export function presentPublication(row: PublicationRow, customer: SimpleCustomer | CustomerObject | undefined) {
  const failed = row.result === 'FAILURE';
  const given = vouchersOf(row);
  return {
    id: row.id,
    object: 'publication' as const,
    created_at: row.created_at,
    customer_id: row.customer_id,
    ...(row.tracking_id === null ? {} : { tracking_id: row.tracking_id }),
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    channel: row.channel,
    source_id: row.source_id,
    result: row.result,
    customer: customer ?? { id: row.customer_id, object: 'customer' as const },
    ...(given.length === 0 ? {} : { vouchers: given.map((v) => v.code), vouchers_id: given.map((v) => v.id) }),
    ...(row.voucher_snapshot === null ? {} : { voucher: JSON.parse(row.voucher_snapshot) as Record<string, unknown> }),
    ...(failed ? { failure_code: row.failure_code, failure_message: row.failure_message } : {}),
  };
}

export type PublicationObject = ReturnType<typeof presentPublication>;

/** The vouchers a publication gave: all of a multi-voucher one (sql/0027), else its one voucher, or none (a failure). */
function vouchersOf(row: PublicationRow): Array<{ id: string; code: string }> {
  if (row.vouchers !== null) return JSON.parse(row.vouchers) as Array<{ id: string; code: string }>;
  return row.voucher_id === null ? [] : [{ id: row.voucher_id, code: row.voucher_code as string }];
}

/** The list's `voucher`: its code and campaign, and its kind's block (discount, gift or loyalty_card). */
export function voucherSnapshot(voucher: VoucherView): Record<string, unknown> {
  const blocks = voucher as unknown as Record<string, unknown>;
  const kind = Object.fromEntries(
    ['discount', 'gift', 'loyalty_card'].flatMap((key) => (blocks[key] == null ? [] : [[key, blocks[key]]])),
  );
  return {
    code: voucher.code,
    object: 'voucher',
    campaign: voucher.campaign,
    ...kind,
    is_referral_code: voucher.is_referral_code,
  };
}
