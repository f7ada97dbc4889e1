/**
 * The campaign body every create answers, with the given fields added or changed. Unset
 * optional fields (description, dates, validity, updated_at, category) are left out, as the
 * API leaves them out (docs/deviations.md).
 */
export function campaignShape(id: string, created_at: string, fields: Record<string, unknown>) {
  return {
    id,
    name: 'x',
    campaign_type: 'DISCOUNT_COUPONS',
    type: 'STATIC',
    auto_join: false,
    join_once: false,
    use_voucher_metadata_schema: true,
    vouchers_count: 0,
    active: true,
    metadata: {},
    created_at,
    category_id: null,
    categories: [],
    creation_status: 'DONE',
    vouchers_generation_status: 'DONE',
    protected: false,
    validation_rules_assignments: { object: 'list', data_ref: 'data', data: [], total: 0 },
    object: 'campaign',
    ...fields,
  };
}
