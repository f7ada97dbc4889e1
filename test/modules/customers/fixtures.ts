/**
 * The whole customer object the API answers, zeros where nothing happened yet; `metadata` only
 * when given (the API leaves an empty one out).
 */
export function customerObject(
  fields: Record<string, unknown> & { id: string; created_at: string; updated_at?: string },
) {
  const { id, created_at, updated_at, ...rest } = fields;
  const {
    source_id,
    name,
    description,
    email,
    phone,
    birthdate,
    address = null,
    summary,
    loyalty,
    referrals,
    metadata,
    assets,
  } = rest as Record<string, unknown>;
  const optional = (key: string, value: unknown) => (value === undefined ? {} : { [key]: value });
  return {
    id,
    ...optional('source_id', source_id),
    ...optional('name', name),
    ...optional('description', description),
    ...optional('email', email),
    ...optional('phone', phone),
    ...optional('birthdate', birthdate),
    address,
    summary: summary ?? {
      redemptions: {
        total_redeemed: 0,
        total_failed: 0,
        total_succeeded: 0,
        total_rolled_back: 0,
        total_rollback_failed: 0,
        total_rollback_succeeded: 0,
        gift: { redeemed_amount: 0, amount_to_go: 0 },
        loyalty_card: { redeemed_points: 0, points_to_go: 0 },
      },
      orders: { total_amount: 0, total_count: 0, average_amount: 0, last_order_amount: 0 },
    },
    loyalty: loyalty ?? { points: 0, referred_customers: 0, campaigns: {} },
    referrals: referrals ?? { total: 0, campaigns: [] },
    ...optional('metadata', metadata),
    system_metadata: {},
    created_at,
    ...(updated_at === undefined ? {} : { updated_at }), // none until the first update (POST /v1/customers)
    ...optional('assets', assets),
    object: 'customer',
  };
}
