import { date, limit, order, page, querySchema, text, type QueryOf } from '../../lib/query-params.js';

export const CUSTOMER_ORDER_FIELDS = ['created_at', 'updated_at', 'source_id'] as const;
export type CustomerOrderField = (typeof CUSTOMER_ORDER_FIELDS)[number];

const customersListParams = {
  limit: limit(),
  page: page(99),
  email: text(),
  city: text(),
  name: text(),
  segment_id: text(),
  'created_at[before]': date(),
  'created_at[after]': date(),
  'updated_at[before]': date(),
  'updated_at[after]': date(),
  order: order(CUSTOMER_ORDER_FIELDS),
  starting_after: date(),
};

/** The query of GET /v1/customers (the reference's "List Customers"). */
export const customersListQuerySchema = querySchema(customersListParams);
export type CustomersListQuery = QueryOf<typeof customersListParams>;
