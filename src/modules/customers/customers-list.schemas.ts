import { parseDateQuery } from '../../lib/dates.js';
import { parseLimit, parseOrder, parsePage, parseString, type OrderBy, type Query } from '../../lib/pagination.js';
import { parseQueryFields } from '../../lib/query-fields.js';

export const CUSTOMER_ORDER_FIELDS = ['created_at', 'updated_at', 'source_id'] as const;
export type CustomerOrderField = (typeof CUSTOMER_ORDER_FIELDS)[number];

/** The query of GET /v1/customers (SPEC.md 4.11), checked. */
export interface CustomersListQuery {
  limit: number;
  page: number;
  email?: string;
  city?: string;
  name?: string;
  segment_id?: string;
  created_before?: string;
  created_after?: string;
  updated_before?: string;
  updated_after?: string;
  order?: OrderBy<CustomerOrderField>;
  starting_after?: string;
}

/** Every parameter checked, every problem reported at once (400 invalid_query_params). */
export function parseCustomersListQuery(query: Query): CustomersListQuery {
  return parseQueryFields<CustomersListQuery>({
    limit: () => parseLimit(query),
    page: () => parsePage(query, 99),
    email: () => parseString(query, 'email'),
    city: () => parseString(query, 'city'),
    name: () => parseString(query, 'name'),
    segment_id: () => parseString(query, 'segment_id'),
    created_before: () => parseDateQuery(query, 'created_at[before]'),
    created_after: () => parseDateQuery(query, 'created_at[after]'),
    updated_before: () => parseDateQuery(query, 'updated_at[before]'),
    updated_after: () => parseDateQuery(query, 'updated_at[after]'),
    order: () => parseOrder(query, CUSTOMER_ORDER_FIELDS),
    starting_after: () => parseDateQuery(query, 'starting_after'),
  });
}
