import { fieldCatalog, readQueryFilters, type Condition, type Filter } from '../../engine/conditions/index.js';
import { invalidQueryParams } from '../../lib/errors.js';

/**
 * The reference's `filters` deep object of GET /v1/vouchers
 * (`filters[<field>][conditions][<$op>]=value`, `filters[junction]=and|or`). The reference
 * documents it as an open object and points to its advanced-filters guide; the fields taken
 * here are the voucher's own columns under the names the reference's voucher filters use
 * (list-vouchers, the voucher export's filter fields): id, code, campaign_id (and
 * campaign_ids), category_id (and category_ids), holder_id, type (and voucher_type), active,
 * is_referral_code, created_at, updated_at, start_date and expiration_date.
 *
 * What an index serves becomes the list's plain parameters (the equality of campaign_id,
 * category_id or holder_id; created_at or updated_at bounds), read through the same indexes.
 * Everything else the string and date operators say (`$is_not`, `$not_in`, `$in` of several
 * values, `$starts_with`, `$contains`, presence, a junction of `or` ...) is checked in the
 * bounded window of db/filter-window.ts. The remaining operators (relative days, counts,
 * numeric comparisons) are refused with 400, naming them, never ignored.
 */
const STRING_FIELDS = [
  'id',
  'code',
  'campaign_id',
  'campaign_ids',
  'category_id',
  'category_ids',
  'holder_id',
  'type',
  'voucher_type',
  'active',
  'is_referral_code',
];
const DATE_FIELDS = ['created_at', 'updated_at', 'start_date', 'expiration_date'];
const CATALOG = fieldCatalog({
  ...Object.fromEntries(STRING_FIELDS.map((field) => [field, 'string' as const])),
  ...Object.fromEntries(DATE_FIELDS.map((field) => [field, 'date' as const])),
});

/** The column each field reads (the plural names take several ids with `$in`). */
export const VOUCHER_FILTER_COLUMNS: Record<string, { column: string; kind: 'text' | 'flag' | 'date' }> = {
  ...Object.fromEntries(STRING_FIELDS.map((field) => [field, { column: field, kind: 'text' as const }])),
  ...Object.fromEntries(DATE_FIELDS.map((field) => [field, { column: field, kind: 'date' as const }])),
  campaign_ids: { column: 'campaign_id', kind: 'text' },
  category_ids: { column: 'category_id', kind: 'text' },
  voucher_type: { column: 'type', kind: 'text' },
  active: { column: 'active', kind: 'flag' },
  is_referral_code: { column: 'is_referral_code', kind: 'flag' },
};

/** Each field and operator an index serves, as the plain parameter it becomes. */
const PARAM_OF: Record<string, Record<string, string>> = {
  campaign_id: { $is: 'campaign_id', $in: 'campaign_id' },
  campaign_ids: { $is: 'campaign_id', $in: 'campaign_id' },
  category_id: { $is: 'category', $in: 'category' },
  category_ids: { $is: 'category', $in: 'category' },
  holder_id: { $is: 'customer', $in: 'customer' },
  created_at: { $after: 'created_at[after]', $before: 'created_at[before]' },
  updated_at: { $after: 'updated_at[after]', $before: 'updated_at[before]' },
};

const STRING_OPERATORS = new Set([
  '$in',
  '$not_in',
  '$is',
  '$is_not',
  '$has_value',
  '$is_unknown',
  '$starts_with',
  '$ends_with',
  '$contains',
  '$not_contain',
]);
const DATE_OPERATORS = new Set(['$after', '$before', '$has_value', '$is_unknown']);

const SERVED =
  `${STRING_FIELDS.join(', ')} with $is, $is_not, $in, $not_in, $has_value, $is_unknown, $starts_with, $ends_with, $contains and $not_contain; ` +
  `${DATE_FIELDS.join(', ')} with $after, $before, $has_value and $is_unknown; joined by "and" or "or"`;

const indexed = (c: Condition) => PARAM_OF[c.field]?.[c.operator] !== undefined && c.operands.length === 1;
const windowable = (c: Condition) =>
  (DATE_FIELDS.includes(c.field) ? DATE_OPERATORS : STRING_OPERATORS).has(c.operator);

/**
 * Whether the parameter a condition becomes is free: not given already, not a campaign beside a
 * category (no index serves both), and not a category with another order than created_at
 * (its index has no other). A condition whose parameter is not free joins the window.
 */
function paramFree(plain: Record<string, unknown>, param: string): boolean {
  if (plain[param] !== undefined) return false;
  const order = typeof plain.order === 'string' ? plain.order.replace(/^-/, '') : 'created_at';
  if (param === 'category')
    return plain.campaign_id === undefined && plain.campaign === undefined && order === 'created_at';
  if (param === 'campaign_id') return plain.category === undefined && plain.campaign === undefined;
  return true;
}

/**
 * The query with its `filters[...]` keys replaced by the plain parameters an index serves, and
 * the conditions left for the bounded window; 400 invalid_query_params for an unknown field or
 * an operator neither serves.
 */
export function withFiltersAsParams(query: Record<string, unknown>): {
  plain: Record<string, unknown>;
  residual?: Filter;
} {
  const read = readQueryFilters(query, { catalog: CATALOG, served: SERVED, accepts: indexed, windowable });
  if (!read.ok) throw invalidQueryParams(read.error);
  const plain = read.rest;
  const windowed = [...(read.residual?.conditions ?? [])];
  for (const condition of read.conditions) {
    const param = PARAM_OF[condition.field]?.[condition.operator] as string;
    if (paramFree(plain, param)) plain[param] = condition.operands[0] as string;
    else windowed.push(condition);
  }
  if (windowed.length === 0) return { plain };
  return { plain, residual: { junction: read.residual?.junction ?? 'and', conditions: windowed } };
}
