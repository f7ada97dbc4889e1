/**
 * The whole voucher body the API answers (the reference's Voucher object), for a voucher without a campaign,
 * category, kind block or any optional field; `fields` change or add to it. Tests assert
 * whole bodies against it.
 */
export function voucherBody(
  voucher: { id: string; code: string; created_at: string },
  fields: Record<string, unknown> = {},
) {
  const path = `/v1/vouchers/${encodeURIComponent(voucher.code)}`;
  const asset = Buffer.from(voucher.code, 'utf8').toString('base64url');
  return {
    id: voucher.id,
    code: voucher.code,
    campaign: null,
    campaign_id: null,
    category: null,
    category_id: null,
    type: 'DISCOUNT_VOUCHER',
    discount: null,
    gift: null,
    loyalty_card: null,
    start_date: null,
    expiration_date: null,
    validity_timeframe: null,
    validity_day_of_week: null,
    validity_hours: null,
    active: true,
    additional_info: null,
    metadata: {},
    assets: {
      qr: { id: asset, url: `/v1/assets/qr/${asset}` },
      barcode: { id: asset, url: `/v1/assets/barcode/${asset}` },
    },
    is_referral_code: false,
    created_at: voucher.created_at,
    updated_at: null,
    referrer_id: null,
    object: 'voucher',
    publish: { object: 'list', count: 0, url: `${path}/publications?page=1&limit=10` },
    // Points are a loyalty card's; any other voucher answers null (the reference's Voucher).
    redemption: {
      quantity: null,
      redeemed_quantity: 0,
      redeemed_points: fields.type === 'LOYALTY_CARD' ? 0 : null,
      object: 'list',
      url: `${path}/redemptions?page=1&limit=10`,
    },
    categories: [],
    validation_rules_assignments: { object: 'list', data_ref: 'data', data: [], total: 0 },
    ...fields,
  };
}

/**
 * The short customer (the reference's SimpleCustomer) of a customer as GET /v1/customers/{id}
 * answers it: what a publication embeds. Unset name and email are left out.
 */
export const shortCustomer = (customer: {
  id: string;
  name?: string | null;
  email?: string | null;
  source_id?: string | null;
  metadata?: Record<string, unknown>;
}) => ({
  id: customer.id,
  ...(customer.name == null ? {} : { name: customer.name }),
  ...(customer.email == null ? {} : { email: customer.email }),
  ...(customer.source_id == null ? {} : { source_id: customer.source_id }),
  // The whole customer leaves an empty metadata out; the short one answers {}.
  metadata: customer.metadata ?? {},
  object: 'customer',
});
