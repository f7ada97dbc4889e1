import { sql } from 'kysely';
import type { FieldSql, ResidualFilter } from '../../../db/filter-window.js';
import { fieldCatalog, readQueryFilters, type Condition } from '../../../engine/conditions/index.js';
import { REDEMPTION_OBJECTS, REDEMPTION_RESULTS } from '../../../lib/enums.js';
import { invalidQueryParams } from '../../../lib/errors.js';

/**
 * The `filters` deep object of GET /v1/redemptions (voucherify-facts 1.16), read by the
 * shared reader (engine/conditions/query-filters.ts) and turned into equality terms on the
 * table's columns, each of which has an index ending with created_at (sql/0015). What such an
 * index serves becomes an equality: `$is` (or `$in` with one value), `$in` with several values
 * of the two-valued `result` and `object`, and `$is_unknown` where the column's index holds
 * its nulls. Every other operator the reference lists for these fields (`$is_not`, `$not_in`,
 * `$in`, `$has_value`, `$starts_with`, `$ends_with`, `$contains`, `$not_contain`), a junction
 * of `or`, and a second condition on a column already restricted, is checked in the bounded
 * window of db/filter-window.ts. `user_login` names a dashboard user, and promo has none:
 * every record was made through the API, so it reads as null (`$is` matches nothing,
 * `$is_unknown` and `$is_not` every record).
 */

/** The columns a list term may restrict. */
export type RedemptionFilterColumn =
  | 'voucher_code'
  | 'related_object_id'
  | 'related_object_parent_id'
  | 'parent_id'
  | 'failure_code'
  | 'result'
  | 'object'
  | 'customer_id'
  | 'campaign_name';

const COLUMN_OF: Record<string, RedemptionFilterColumn | 'user_login'> = {
  voucher_code: 'voucher_code',
  related_object_id: 'related_object_id',
  related_object_parent_id: 'related_object_parent_id',
  parent_redemption_id: 'parent_id',
  failure_code: 'failure_code',
  result: 'result',
  object: 'object',
  customer_id: 'customer_id',
  campaign_name: 'campaign_name',
  user_login: 'user_login',
};

const CATALOG = fieldCatalog(Object.fromEntries(Object.keys(COLUMN_OF).map((field) => [field, 'string' as const])));

/** Columns with only these values: a term naming all of them restricts nothing. */
const ENUMS: Partial<Record<string, readonly string[]>> = { result: REDEMPTION_RESULTS, object: REDEMPTION_OBJECTS };

/** Fields whose index holds their nulls (failure_code's index is partial: failures only). */
const NULLABLE = new Set([
  'voucher_code',
  'related_object_parent_id',
  'parent_redemption_id',
  'customer_id',
  'campaign_name',
  'user_login',
]);

const SERVED =
  'every field with $is, $is_not, $in, $not_in, $has_value, $is_unknown, $starts_with, $ends_with, $contains and $not_contain, joined by "and" or "or"';

function accepts({ field, operator, operands }: Condition): boolean {
  if (operator === '$is') return true;
  if (operator === '$in')
    return (
      operands.length === 1 ||
      (ENUMS[field] !== undefined && operands.length <= (ENUMS[field] as readonly string[]).length)
    );
  return operator === '$is_unknown' && NULLABLE.has(field);
}

/** The string operators of the reference's FilterConditionsString, which the window checks. */
const WINDOWED = new Set([
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

/** How a field reads inside the window: its column, or a text NULL for user_login (typed: PostgreSQL compares no untyped NULL with a parameter). */
export const redemptionField = (field: string): FieldSql => {
  const column = COLUMN_OF[field] as string;
  return { value: column === 'user_login' ? sql`CAST(NULL AS text)` : sql.ref(column), kind: 'text' };
};

/** One restriction of the list: the values a column may hold (null: none, the column IS NULL), and how the query named it. */
export interface Term {
  column: RedemptionFilterColumn | 'user_login';
  values: Array<string | null>;
  label: string;
  /** The filter condition it came from (none for a plain parameter). */
  condition?: Condition;
}

const termOf = (condition: Condition): Term => ({
  column: COLUMN_OF[condition.field] as Term['column'],
  values: condition.operator === '$is_unknown' ? [null] : (condition.operands as string[]),
  label: `filters.${condition.field}`,
  condition,
});

/** The query's `filters`: terms an index serves, the window's conditions, and the query without them; 400 for the rest. */
export function readRedemptionFilters(query: Record<string, unknown>): {
  terms: Term[];
  residual?: ResidualFilter;
  rest: Record<string, unknown>;
} {
  const read = readQueryFilters(query, {
    catalog: CATALOG,
    accepts,
    served: SERVED,
    windowable: (c) => WINDOWED.has(c.operator),
  });
  if (!read.ok) throw invalidQueryParams(read.error);
  return { terms: read.conditions.map(termOf), residual: read.residual, rest: read.rest };
}

/** The list's restrictions, each column once: equalities (null: IS NULL), or `none` when no record can match. */
export interface RedemptionWhere {
  equal: Partial<Record<RedemptionFilterColumn, string | null>>;
  none: boolean;
  /** What no index serves: checked in the bounded window. */
  residual?: ResidualFilter;
  /** How the query named each column it restricts, for messages. */
  labels: Partial<Record<RedemptionFilterColumn, string>>;
}

/**
 * Terms as equalities. A filter on a column restricted already (by a parameter or an earlier
 * filter) joins the window's conditions: both must hold, and an index serves one column's
 * equality only. A term naming every value of result or object restricts nothing; one naming
 * none of them matches nothing.
 */
export function whereOf(terms: Term[], residual?: ResidualFilter): RedemptionWhere {
  const where: RedemptionWhere = { equal: {}, none: false, labels: {}, residual };
  const seen = new Set<string>();
  for (const { column, values, label, condition } of terms) {
    if (seen.has(column) && condition !== undefined) {
      const conditions = [...(where.residual?.conditions ?? []), condition];
      where.residual = { junction: 'and', conditions };
      continue;
    }
    seen.add(column);
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
