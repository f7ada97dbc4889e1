import { fieldCatalog, readQueryFilters, type Condition } from '../../engine/conditions/index.js';
import { REDEMPTION_OBJECTS, REDEMPTION_RESULTS } from '../../lib/enums.js';
import { invalidQueryParams } from '../../lib/errors.js';

/**
 * The `filters` deep object of GET /v1/redemptions (voucherify-facts 1.16), read by the
 * shared reader (engine/conditions/query-filters.ts) and turned into equality terms on the
 * table's columns, each of which has an index ending with created_at (sql/0015). Only what
 * such an index serves is accepted: `$is` (or `$in` with one value), `$in` with several values
 * of the two-valued `result` and `object`, and `$is_unknown` where the column's index holds
 * its nulls. `user_login` names a dashboard user, and promo has none: every record was made
 * through the API, so `$is`/`$in` match nothing and `$is_unknown` matches every record.
 */

/** The columns a list term may restrict. */
export type RedemptionFilterColumn =
  | 'voucher_code' | 'related_object_id' | 'related_object_parent_id' | 'parent_id' | 'failure_code' | 'result' | 'object' | 'customer_id' | 'campaign_name';

const COLUMN_OF: Record<string, RedemptionFilterColumn | 'user_login'> = {
  voucher_code: 'voucher_code', related_object_id: 'related_object_id', related_object_parent_id: 'related_object_parent_id',
  parent_redemption_id: 'parent_id', failure_code: 'failure_code', result: 'result', object: 'object', customer_id: 'customer_id',
  campaign_name: 'campaign_name', user_login: 'user_login',
};

const CATALOG = fieldCatalog(Object.fromEntries(Object.keys(COLUMN_OF).map((field) => [field, 'string' as const])));

/** Columns with only these values: a term naming all of them restricts nothing. */
const ENUMS: Partial<Record<string, readonly string[]>> = { result: REDEMPTION_RESULTS, object: REDEMPTION_OBJECTS };

/** Fields whose index holds their nulls (failure_code's index is partial: failures only). */
const NULLABLE = new Set(['voucher_code', 'related_object_parent_id', 'parent_redemption_id', 'customer_id', 'campaign_name', 'user_login']);

const SERVED =
  'each field with $is (or $in with one value; result and object also with $in of both values), ' +
  'voucher_code, related_object_parent_id, parent_redemption_id, customer_id, campaign_name and user_login also with $is_unknown, joined by "and"';

function accepts({ field, operator, operands }: Condition): boolean {
  if (operator === '$is') return true;
  if (operator === '$in') return operands.length === 1 || (ENUMS[field] !== undefined && operands.length <= (ENUMS[field] as readonly string[]).length);
  return operator === '$is_unknown' && NULLABLE.has(field);
}

/** One restriction of the list: the values a column may hold (null: none, the column IS NULL), and how the query named it. */
export interface Term {
  column: RedemptionFilterColumn | 'user_login';
  values: Array<string | null>;
  label: string;
}

const termOf = ({ field, operator, operands }: Condition): Term => ({
  column: COLUMN_OF[field] as Term['column'],
  values: operator === '$is_unknown' ? [null] : (operands as string[]),
  label: `filters.${field}`,
});

/** The query's `filters` as terms, and the query without them; 400 for what no index serves. */
export function readRedemptionFilters(query: Record<string, unknown>): { terms: Term[]; rest: Record<string, unknown> } {
  const read = readQueryFilters(query, { catalog: CATALOG, accepts, served: SERVED });
  if (!read.ok) throw invalidQueryParams(read.error);
  return { terms: read.conditions.map(termOf), rest: read.rest };
}

/** The list's restrictions, each column once: equalities (null: IS NULL), or `none` when no record can match. */
export interface RedemptionWhere {
  equal: Partial<Record<RedemptionFilterColumn, string | null>>;
  none: boolean;
  /** How the query named each column it restricts, for messages. */
  labels: Partial<Record<RedemptionFilterColumn, string>>;
}

/**
 * Terms as equalities. A column named twice (a parameter and a filter, or one filter with two
 * operators) is refused: which one was meant is not ours to guess. A term naming every value
 * of result or object restricts nothing; one naming none of them matches nothing.
 */
export function whereOf(terms: Term[]): RedemptionWhere {
  const where: RedemptionWhere = { equal: {}, none: false, labels: {} };
  const seen = new Map<string, string>();
  for (const { column, values, label } of terms) {
    const earlier = seen.get(column);
    if (earlier !== undefined) throw invalidQueryParams(`${label} restricts what ${earlier} restricts already; give it once`);
    seen.set(column, label);
    if (column === 'user_login') {
      where.none ||= values[0] !== null;
      continue;
    }
    const known = ENUMS[column];
    const kept = known === undefined ? [...new Set(values)] : known.filter((value) => values.includes(value));
    if (kept.length === 0) where.none = true;
    else if (known === undefined || kept.length < known.length) {
      where.equal[column] = kept[0] as string | null;
      where.labels[column] = label;
    }
  }
  return where;
}
