import { fieldCatalog, validateFilter, type Condition } from '../../engine/conditions/index.js';
import { invalidQueryParams } from '../../lib/errors.js';

/**
 * The reference's `filters` deep object of GET /v1/vouchers
 * (`filters[<field>][conditions][<$op>]=value`, `filters[junction]=and`), checked by the
 * condition engine (src/engine/conditions) and turned into the list's plain parameters, so
 * that it is served by the same indexes. Only what an index serves is accepted: the
 * equality of campaign_id, category_id or holder_id, and created_at or updated_at bounds,
 * joined by `and`. Everything else is refused with 400, naming it, never ignored.
 */
const CATALOG = fieldCatalog({ campaign_id: 'string', category_id: 'string', holder_id: 'string', created_at: 'date', updated_at: 'date' });

/** Each accepted field and operator, as the plain parameter it becomes. */
const PARAM_OF: Record<string, Record<string, string>> = {
  campaign_id: { $is: 'campaign_id', $in: 'campaign_id' },
  category_id: { $is: 'category', $in: 'category' },
  holder_id: { $is: 'customer', $in: 'customer' },
  created_at: { $after: 'created_at[after]', $before: 'created_at[before]' },
  updated_at: { $after: 'updated_at[after]', $before: 'updated_at[before]' },
};

const SERVED = 'campaign_id, category_id and holder_id with $is (or $in with one value), created_at and updated_at with $after and $before';

/** `a[b][c][0]` -> ['a', 'b', 'c', '0']. */
const pathOf = (key: string): string[] => [key.slice(0, key.indexOf('[')), ...Array.from(key.matchAll(/\[([^\]]*)\]/g), (m) => m[1] as string)];

/** The `filters[...]` keys as one object; an operator's values are always an array. */
function nest(query: Record<string, unknown>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (!key.startsWith('filters[')) continue;
    const [, ...path] = pathOf(key);
    // `[$in][0]` and `[$in][]` (repeated) name items of the operator's array.
    if (path.length === 4 && /^\d*$/.test(path[3] as string)) path.pop();
    let node = root;
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    const last = path[path.length - 1] as string;
    const values = Array.isArray(raw) ? raw : [raw];
    node[last] = last === 'junction' || path.length < 3 ? raw : [...((node[last] as unknown[] | undefined) ?? []), ...values];
  }
  return root;
}

function paramOf(condition: Condition): [string, string] {
  const param = PARAM_OF[condition.field]?.[condition.operator];
  if (param === undefined || condition.operands.length !== 1) {
    throw invalidQueryParams(`filters.${condition.field}.conditions.${condition.operator} is not served by an index; the filters served are ${SERVED}`);
  }
  return [param, condition.operands[0] as string];
}

/**
 * The query with its `filters[...]` keys replaced by the plain parameters they mean; 400
 * invalid_query_params for an unknown field or operator, an `or` of several conditions, or a
 * parameter given both ways.
 */
export function withFiltersAsParams(query: Record<string, unknown>): Record<string, unknown> {
  const filters = nest(query);
  const plain = Object.fromEntries(Object.entries(query).filter(([key]) => !key.startsWith('filters[')));
  if (Object.keys(filters).length === 0) return plain;
  const checked = validateFilter({ junction: 'and', ...filters }, CATALOG, 'filters');
  if (!checked.ok) throw invalidQueryParams(checked.errors.join('; '));
  const { junction, conditions } = checked.filter;
  if (junction === 'or' && conditions.length > 1) throw invalidQueryParams('filters.junction "or" of several conditions is not served by an index; use "and"');
  for (const condition of conditions) {
    const [param, value] = paramOf(condition);
    if (plain[param] !== undefined) throw invalidQueryParams(`${param} is given twice (as a parameter or in filters)`);
    plain[param] = value;
  }
  return plain;
}
