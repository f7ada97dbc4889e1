import type { FieldKind } from '../../engine/conditions/index.js';
import type { ExportedObject } from '../../lib/enums.js';

/**
 * What each exported object reads: its table, the columns and subqueries a row needs, each
 * field of the CSV (the reference's field names, the Create Export page's tables) as a value
 * of the row, the fields given when the request names none (the reference's defaults), and
 * the orders the export accepts, each an indexed NOT NULL column (or the row's seq, the
 * order of insertion) so a page is a keyset seek on an index, never a sort.
 */
export type ExportRow = Record<string, unknown>;

export interface ExportField {
  kind: FieldKind;
  /** The columns (or lookups) the value reads: a page selects only those its fields need. */
  columns: readonly string[];
  value(row: ExportRow): unknown;
}

/** A correlated subquery selected beside the columns: `(SELECT <column> FROM <table> WHERE id = <table>.<via>)`. */
export interface ExportLookup {
  as: string;
  table: 'campaigns' | 'categories';
  column: 'name';
  via: string;
}

export interface ExportSource {
  table: 'vouchers' | 'customers' | 'orders' | 'redemptions' | 'points_buckets' | 'ledger_entries';
  lookups?: readonly ExportLookup[];
  fields: Readonly<Record<string, ExportField>>;
  defaults: readonly string[];
  /** The `order` values (without `-`) and the column each walks. */
  orders: Readonly<Record<string, string>>;
  /**
   * The index a seek among ties on an order's column must use (by column), where the planner
   * could prefer another: it reads points_buckets_card by skip-scan, then sorts.
   */
  tieIndexes?: Readonly<Record<string, string>>;
  /** The JSON column whose keys `metadata.<key>` fields and filters read. */
  metadata?: string;
  /** Rows the export never holds (points that never expire), and the columns that tells from. */
  keep?(row: ExportRow): boolean;
  keepColumns?: readonly string[];
}

const json = (text: unknown): Record<string, unknown> =>
  typeof text === 'string' ? (JSON.parse(text) as Record<string, unknown>) : {};
const column = (name: string, kind: FieldKind = 'string'): ExportField => ({
  kind,
  columns: [name],
  value: (row) => row[name],
});
const inJson = (name: string, key: string, kind: FieldKind = 'string'): ExportField => ({
  kind,
  columns: [name],
  value: (row) => json(row[name])[key],
});
const flag = (name: string): ExportField => ({
  kind: 'any',
  columns: [name],
  value: (row) => (row[name] === null ? null : row[name] === 1),
});
const parsed = (name: string): ExportField => ({
  kind: 'any',
  columns: [name],
  value: (row) => (row[name] === null ? null : JSON.parse(row[name] as string)),
});
const same = (...names: string[]): Record<string, ExportField> =>
  Object.fromEntries(names.map((name) => [name, column(name)]));
const numbers = (...names: string[]): Record<string, ExportField> =>
  Object.fromEntries(names.map((name) => [name, column(name, 'number')]));
const dates = (...names: string[]): Record<string, ExportField> =>
  Object.fromEntries(names.map((name) => [name, column(name, 'date')]));

/** A voucher's value: its discount's amount, percent, units or fixed amount, its gift amount, or its card's points. */
function voucherValue(row: ExportRow): unknown {
  if (row.type === 'GIFT_VOUCHER') return row.gift_amount;
  if (row.type === 'LOYALTY_CARD') return row.loyalty_points;
  const discount = json(row.discount);
  return discount.amount_off ?? discount.percent_off ?? discount.unit_off ?? discount.fixed_amount ?? null;
}

const voucher: ExportSource = {
  table: 'vouchers',
  lookups: [
    { as: 'campaign_name', table: 'campaigns', column: 'name', via: 'campaign_id' },
    { as: 'category_name', table: 'categories', column: 'name', via: 'category_id' },
  ],
  fields: {
    ...same('id', 'code', 'campaign_id', 'additional_info'),
    ...numbers('gift_balance', 'loyalty_balance', 'redemption_quantity'),
    ...dates('start_date', 'expiration_date', 'created_at', 'updated_at'),
    voucher_type: column('type'),
    value: { kind: 'number', columns: ['type', 'gift_amount', 'loyalty_points', 'discount'], value: voucherValue },
    discount_type: inJson('discount', 'type'),
    discount_amount_limit: inJson('discount', 'amount_limit', 'number'),
    discount_effect: inJson('discount', 'effect'),
    discount_unit_type: inJson('discount', 'unit_type'),
    discount_unit_effect: inJson('discount', 'effect'),
    campaign: column('campaign_name'),
    category: column('category_name'),
    redemption_count: column('redeemed_quantity', 'number'),
    active: flag('active'),
    is_referral_code: flag('is_referral_code'),
    metadata: column('metadata', 'any'),
    customer_id: column('holder_id'),
    validity_timeframe_interval: inJson('validity_timeframe', 'interval'),
    validity_timeframe_duration: inJson('validity_timeframe', 'duration'),
    validity_day_of_week: parsed('validity_day_of_week'),
  },
  defaults: ['code', 'voucher_type', 'value', 'discount_type'],
  orders: { created_at: 'created_at', code: 'code', id: 'id' },
  metadata: 'metadata',
};

const address = (key: string): ExportField => inJson('address', key);

const customer: ExportSource = {
  table: 'customers',
  fields: {
    ...same('id', 'source_id', 'name', 'description', 'email', 'phone'),
    ...numbers(
      'redemptions_total_redeemed',
      'redemptions_total_failed',
      'redemptions_total_succeeded',
      'redemptions_total_rolled_back',
      'redemptions_total_rollback_failed',
      'redemptions_total_rollback_succeeded',
      'orders_total_amount',
      'orders_total_count',
      'orders_last_order_amount',
      'loyalty_points',
      'loyalty_referred_customers',
    ),
    ...dates('orders_last_order_date', 'created_at', 'updated_at'),
    birthdate: column('birthdate'),
    birthday: column('birthdate'),
    address_city: address('city'),
    address_state: address('state'),
    address_line_1: address('line_1'),
    address_line_2: address('line_2'),
    address_country: address('country'),
    address_postal_code: address('postal_code'),
    // PAID and FULFILLED orders' mean, rounded as the customer's summary rounds it.
    orders_average_amount: {
      kind: 'number',
      columns: ['orders_total_amount', 'orders_total_count'],
      value: (row) =>
        row.orders_total_count === 0
          ? 0
          : Math.round((row.orders_total_amount as number) / (row.orders_total_count as number)),
    },
    metadata: column('metadata', 'any'),
  },
  defaults: ['name', 'source_id'],
  orders: { created_at: 'created_at', updated_at: 'updated_at', id: 'id' },
  metadata: 'metadata',
};

const order: ExportSource = {
  table: 'orders',
  fields: {
    ...same('id', 'source_id', 'status', 'customer_id', 'referrer_id'),
    ...numbers('amount', 'discount_amount', 'items_discount_amount', 'total_amount'),
    ...dates('created_at', 'updated_at'),
    total_discount_amount: {
      kind: 'number',
      columns: ['discount_amount', 'items_discount_amount'],
      value: (row) => (row.discount_amount as number) + (row.items_discount_amount as number),
    },
    metadata: column('metadata', 'any'),
  },
  defaults: ['id', 'source_id', 'status'],
  orders: { created_at: 'created_at', id: 'id' },
  metadata: 'metadata',
};

const redemption: ExportSource = {
  table: 'redemptions',
  fields: {
    ...same(
      'id',
      'object',
      'voucher_code',
      'promotion_tier_id',
      'customer_id',
      'tracking_id',
      'order_id',
      'result',
      'failure_code',
      'failure_message',
    ),
    ...numbers('gift_amount', 'loyalty_points'),
    date: column('created_at', 'date'),
    campaign: column('campaign_name'),
    customer_source_id: inJson('customer_snapshot', 'source_id'),
    customer_name: inJson('customer_snapshot', 'name'),
    order_amount: inJson('order_snapshot', 'amount', 'number'),
    metadata: parsed('metadata'),
  },
  defaults: ['id', 'object', 'voucher_code', 'customer_id', 'date', 'result'],
  orders: { created_at: 'created_at', id: 'id' },
  metadata: 'metadata',
};

/** Buckets that never expire carry this date (ledgers); a points expiration export leaves them out. */
const NEVER_EXPIRES = '9999-12-31';

const pointsExpiration: ExportSource = {
  table: 'points_buckets',
  fields: {
    ...same('id', 'campaign_id', 'voucher_id', 'status'),
    expires_at: column('expires_on', 'date'),
    // What expires (ACTIVE: the points left in the bucket) or expired (EXPIRED).
    points: {
      kind: 'number',
      columns: ['status', 'total_points', 'expired_points'],
      value: (row) => (row.status === 'EXPIRED' ? row.expired_points : row.total_points),
    },
  },
  defaults: ['id', 'campaign_id', 'voucher_id', 'status', 'expires_at', 'points'],
  orders: { expires_at: 'expires_on', id: 'id' },
  tieIndexes: { expires_on: 'points_buckets_expires_on' },
  keep: (row) => row.expires_on !== NEVER_EXPIRES,
  keepColumns: ['expires_on'],
};

const voucherTransactions: ExportSource = {
  table: 'ledger_entries',
  fields: {
    ...same('id', 'campaign_id', 'voucher_id', 'type', 'source_id', 'reason', 'source', 'related_transaction_id'),
    balance: column('balance', 'number'),
    amount: column('delta', 'number'),
    created_at: column('created_at', 'date'),
    details: parsed('details'),
  },
  // The reference's defaults also name `status`, which a transaction does not have.
  defaults: ['id', 'type', 'source_id', 'reason', 'source', 'balance', 'amount', 'created_at'],
  orders: { created_at: 'created_at', id: 'id' },
};

export const EXPORT_SOURCES: Readonly<Record<ExportedObject, ExportSource>> = {
  voucher,
  customer,
  order,
  redemption,
  points_expiration: pointsExpiration,
  voucher_transactions: voucherTransactions,
};

/** A field's value in a row: a named field, or `metadata.<key>` of the source's metadata column. */
export function fieldValue(source: ExportSource, row: ExportRow, field: string): unknown {
  const known = source.fields[field];
  if (known) return known.value(row);
  if (source.metadata && field.startsWith('metadata.'))
    return json(row[source.metadata])[field.slice('metadata.'.length)];
  return undefined;
}

/**
 * The columns a page must select for these fields (and filter fields), the order's column and
 * the source's own test; the lookups among them are selected as subqueries.
 */
export function columnsFor(source: ExportSource, fields: readonly string[], orderColumn: string | null): string[] {
  const needed = new Set<string>([...(orderColumn === null ? [] : [orderColumn]), ...(source.keepColumns ?? [])]);
  for (const field of fields) {
    const known = source.fields[field];
    if (known) known.columns.forEach((c) => needed.add(c));
    else if (source.metadata && field.startsWith('metadata.')) needed.add(source.metadata);
  }
  return [...needed];
}
