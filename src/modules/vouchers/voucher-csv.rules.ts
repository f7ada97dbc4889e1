import { numberCell, sortColumns } from '../../lib/csv.js';
import { invalidPayload } from '../../lib/errors.js';

/**
 * A vouchers CSV row (the reference's columns: Code, Voucher Type, Value, Discount Type,
 * Category, Start Date, Expiration Date, Redemption Limit, Redeemed Quantity, Redeemed Amount,
 * Active, Additional Info; any other column is metadata) as the JSON the voucher endpoints take:
 * POST /v1/vouchers for standalone vouchers, an item of POST /v1/campaigns/{id}/import for a
 * campaign's. Value is the discount's amount_off (minor units), percent_off, unit_off or
 * fixed_amount by Discount Type; a gift card's amount (minor units); a loyalty card's points.
 */
const COLUMNS: Readonly<Record<string, string>> = {
  code: 'code',
  voucher_type: 'type',
  type: 'type',
  value: 'value',
  discount_type: 'discount_type',
  category: 'category',
  start_date: 'start_date',
  expiration_date: 'expiration_date',
  redemption_limit: 'redemption_limit',
  redeemed_quantity: 'redeemed_quantity',
  redeemed_amount: 'redeemed_amount',
  active: 'active',
  additional_info: 'additional_info',
};

const TYPE_NAMES: Readonly<Record<string, string>> = {
  DISCOUNT: 'DISCOUNT_VOUCHER',
  GIFT: 'GIFT_VOUCHER',
  LOYALTY: 'LOYALTY_CARD',
  LOYALTY_CARD: 'LOYALTY_CARD',
  GIFT_CARD: 'GIFT_VOUCHER',
};

const DISCOUNT_VALUE: Readonly<Record<string, string>> = {
  AMOUNT: 'amount_off',
  PERCENT: 'percent_off',
  UNIT: 'unit_off',
  FIXED: 'fixed_amount',
};

const upper = (value: string): string =>
  value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');

/** "true"/"false" (any case, or 1/0, yes/no) as a boolean; anything else stays text, which the schema refuses. */
function booleanCell(value: string): boolean | string {
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no'].includes(v)) return false;
  return value;
}

export interface VoucherCsvContext {
  /** The campaign's voucher type (a campaign import): the type of rows that name none. */
  campaignType?: string;
  /** The campaign's discount type: that of rows with a Value and no Discount Type. */
  campaignDiscountType?: string;
  /** Campaign import items carry a gift's balance beside its amount. */
  giftBalance?: boolean;
}

/** The voucher's block (discount, gift or loyalty_card) for its type and Value. */
function kindBlock(
  type: string | undefined,
  value: number | string | undefined,
  discountType: string | undefined,
  ctx: VoucherCsvContext,
) {
  if (type === 'GIFT_VOUCHER')
    return value === undefined ? {} : { gift: ctx.giftBalance ? { amount: value, balance: value } : { amount: value } };
  if (type === 'LOYALTY_CARD') return value === undefined ? {} : { loyalty_card: { points: value } };
  const dtype = discountType ?? (value === undefined ? undefined : ctx.campaignDiscountType);
  if (dtype === undefined) return {};
  const field = DISCOUNT_VALUE[dtype];
  return { discount: field && value !== undefined ? { type: dtype, [field]: value } : { type: dtype } };
}

/** Redeemed counts only this engine's redemptions write: a row may give none but zero. */
function refuseRedeemed(fields: Record<string, string>): void {
  for (const [field, label] of [
    ['redeemed_quantity', 'Redeemed Quantity'],
    ['redeemed_amount', 'Redeemed Amount'],
  ] as const) {
    const value = fields[field];
    if (value !== undefined && Number(value) !== 0)
      throw invalidPayload(`${label} cannot be imported (only redemptions made here count); leave it empty or 0`);
  }
}

/** A row's code, for its failure (never throws). */
export const codeOfCsv = (record: Record<string, string>): string | null =>
  sortColumns(record, COLUMNS).fields.code ?? null;

export function voucherFromCsv(record: Record<string, string>, ctx: VoucherCsvContext = {}): Record<string, unknown> {
  const { fields, metadata } = sortColumns(record, COLUMNS);
  refuseRedeemed(fields);
  const type = fields.type === undefined ? ctx.campaignType : (TYPE_NAMES[upper(fields.type)] ?? upper(fields.type));
  const body: Record<string, unknown> = { code: fields.code };
  if (fields.type !== undefined) body.type = type;
  Object.assign(
    body,
    kindBlock(type, numberCell(fields.value), fields.discount_type && upper(fields.discount_type), ctx),
  );
  for (const field of ['category', 'start_date', 'expiration_date', 'additional_info'] as const) {
    if (fields[field] !== undefined) body[field] = fields[field];
  }
  if (fields.redemption_limit !== undefined) body.redemption = { quantity: numberCell(fields.redemption_limit) };
  if (fields.active !== undefined) body.active = booleanCell(fields.active);
  if (Object.keys(metadata).length > 0) body.metadata = metadata;
  return body;
}
