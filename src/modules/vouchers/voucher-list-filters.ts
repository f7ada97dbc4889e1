import { fieldCatalog, readQueryFilters } from '../../engine/conditions/index.js';
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

/**
 * The query with its `filters[...]` keys replaced by the plain parameters they mean; 400
 * invalid_query_params for an unknown field or operator, an `or` of several conditions, or a
 * parameter given both ways.
 */
export function withFiltersAsParams(query: Record<string, unknown>): Record<string, unknown> {
  const read = readQueryFilters(query, { catalog: CATALOG, served: SERVED, accepts: (c) => PARAM_OF[c.field]?.[c.operator] !== undefined && c.operands.length === 1 });
  if (!read.ok) throw invalidQueryParams(read.error);
  const plain = read.rest;
  for (const condition of read.conditions) {
    const param = PARAM_OF[condition.field]?.[condition.operator] as string;
    if (plain[param] !== undefined) throw invalidQueryParams(`${param} is given twice (as a parameter or in filters)`);
    plain[param] = condition.operands[0] as string;
  }
  return plain;
}
