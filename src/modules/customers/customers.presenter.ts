import type { CustomerRow, LoyaltyCampaignRow, ReferralRow } from './customers.repository.js';

/** The address fields a caller gave; one given as null stays null. */
export interface Address {
  city?: string | null;
  state?: string | null;
  line_1?: string | null;
  line_2?: string | null;
  country?: string | null;
  postal_code?: string | null;
}

/** The reference's Customer object, with summary, loyalty and referrals always present. */
export interface CustomerObject {
  id: string;
  source_id?: string;
  name?: string;
  description?: string;
  email?: string;
  phone?: string;
  birthdate?: string;
  address: Address | null;
  summary: {
    redemptions: {
      total_redeemed: number;
      total_failed: number;
      total_succeeded: number;
      total_rolled_back: number;
      total_rollback_failed: number;
      total_rollback_succeeded: number;
      gift: { redeemed_amount: number; amount_to_go: number };
      loyalty_card: { redeemed_points: number; points_to_go: number };
    };
    orders: {
      total_amount: number;
      total_count: number;
      average_amount: number;
      last_order_amount: number;
      last_order_date?: string;
    };
  };
  loyalty: {
    points: number;
    referred_customers: number;
    campaigns: Record<string, { points: number; referred_customers: number; loyalty_tier?: string }>;
  };
  referrals: {
    total: number;
    campaigns: Array<{
      campaign_id: string;
      referrer_id: string;
      related_object_id: string;
      related_object_type: string;
      date: string;
    }>;
  };
  /** Left out while empty, as the real API's customer answers leave it out (docs/deviations.md). */
  metadata?: Record<string, unknown>;
  system_metadata: Record<string, unknown>;
  created_at: string;
  /** Left out until the customer's first update, as the reference's new customer leaves it out. */
  updated_at?: string;
  /** Activity view only. */
  assets?: Record<string, string>;
  object: 'customer';
}

/** The short customer other objects embed (redemptions, orders, events). */
export interface SimpleCustomer {
  id: string;
  name?: string;
  email?: string;
  source_id?: string;
  metadata: Record<string, unknown>;
  object: 'customer';
}

/** The related rows a customer answer needs besides its own row. */
export interface CustomerRelations {
  campaigns: LoyaltyCampaignRow[];
  referrals: ReferralRow[];
}

/** Optional text fields are left out when unset: the reference types them as plain strings. */
const optional = <K extends string>(key: K, value: string | null): Partial<Record<K, string>> =>
  value === null ? {} : ({ [key]: value } as Record<K, string>);

function summaryOf(row: CustomerRow): CustomerObject['summary'] {
  const count = row.orders_total_count;
  return {
    redemptions: {
      total_redeemed: row.redemptions_total_redeemed,
      total_failed: row.redemptions_total_failed,
      total_succeeded: row.redemptions_total_succeeded,
      total_rolled_back: row.redemptions_total_rolled_back,
      total_rollback_failed: row.redemptions_total_rollback_failed,
      total_rollback_succeeded: row.redemptions_total_rollback_succeeded,
      gift: { redeemed_amount: row.gift_redeemed_amount, amount_to_go: row.gift_amount_to_go },
      loyalty_card: { redeemed_points: row.loyalty_card_redeemed_points, points_to_go: row.loyalty_card_points_to_go },
    },
    orders: {
      total_amount: row.orders_total_amount,
      total_count: count,
      average_amount: count === 0 ? 0 : Math.round(row.orders_total_amount / count),
      last_order_amount: row.orders_last_order_amount,
      ...optional('last_order_date', row.orders_last_order_date),
    },
  };
}

function loyaltyOf(row: CustomerRow, campaigns: LoyaltyCampaignRow[]): CustomerObject['loyalty'] {
  const byName: CustomerObject['loyalty']['campaigns'] = {};
  for (const c of campaigns) {
    byName[c.campaign_name] = {
      points: c.points,
      referred_customers: c.referred_customers,
      ...optional('loyalty_tier', c.loyalty_tier),
    };
  }
  return { points: row.loyalty_points, referred_customers: row.loyalty_referred_customers, campaigns: byName };
}

function referralsOf(referrals: ReferralRow[]): CustomerObject['referrals'] {
  return {
    total: referrals.length,
    campaigns: referrals.map((r) => ({
      campaign_id: r.campaign_id,
      referrer_id: r.referrer_id,
      related_object_id: r.related_object_id,
      related_object_type: r.related_object_type,
      date: r.date,
    })),
  };
}

export function presentCustomer(row: CustomerRow, relations: CustomerRelations): CustomerObject {
  return {
    id: row.id,
    ...optional('source_id', row.source_id),
    ...optional('name', row.name),
    ...optional('description', row.description),
    ...optional('email', row.email),
    ...optional('phone', row.phone),
    ...optional('birthdate', row.birthdate),
    address: row.address === null ? null : (JSON.parse(row.address) as Address),
    summary: summaryOf(row),
    loyalty: loyaltyOf(row, relations.campaigns),
    referrals: referralsOf(relations.referrals),
    ...(row.metadata === '{}' ? {} : { metadata: JSON.parse(row.metadata) as Record<string, unknown> }),
    system_metadata: JSON.parse(row.system_metadata) as Record<string, unknown>,
    created_at: row.created_at,
    // The column also orders and filters lists, so it is written at creation; a customer whose
    // row was never touched since reads as the reference's never-updated customer (POST
    // /v1/customers answers no updated_at, and the schema types it as a string, never null).
    ...(row.updated_at === row.created_at ? {} : { updated_at: row.updated_at }),
    object: 'customer',
  };
}

/**
 * The customer as activity items show it (the reference's CustomerActivity object): with `assets`. An on-prem engine has
 * no hosted customer cockpit, so assets carries no URLs.
 */
export const presentCustomerForActivity = (customer: CustomerObject): CustomerObject => {
  const { object, ...rest } = customer;
  return { ...rest, assets: {}, object };
};

export const presentSimpleCustomer = (
  row: Pick<CustomerRow, 'id' | 'name' | 'email' | 'source_id' | 'metadata'>,
): SimpleCustomer => ({
  id: row.id,
  ...optional('name', row.name),
  ...optional('email', row.email),
  ...optional('source_id', row.source_id),
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  object: 'customer',
});

/** Groups relation rows by customer id, for presenting a page of customers. */
export function relationsByCustomer(
  campaigns: LoyaltyCampaignRow[],
  referrals: ReferralRow[],
): Map<string, CustomerRelations> {
  const map = new Map<string, CustomerRelations>();
  const get = (id: string): CustomerRelations => {
    let entry = map.get(id);
    if (!entry) map.set(id, (entry = { campaigns: [], referrals: [] }));
    return entry;
  };
  for (const c of campaigns) get(c.customer_id).campaigns.push(c);
  for (const r of referrals) get(r.customer_id).referrals.push(r);
  return map;
}
