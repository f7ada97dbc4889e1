import { array, string } from 'yup';
import { REDEMPTION_LIST_ORDERS, REDEMPTION_RESULTS, type RedemptionResult } from '../../../lib/enums.js';
import { invalidQueryParams } from '../../../lib/errors.js';
import type { OrderBy } from '../../../lib/pagination.js';
import {
  date,
  gatherRepeated,
  limit,
  order,
  page,
  querySchema,
  refuseUnservedOrder,
  text,
  type ParamBuilder,
} from '../../../lib/query-params.js';
import { parse } from '../../../lib/validate.js';
import { readRedemptionFilters, whereOf, type RedemptionWhere, type Term } from './redemptions-list.filters.js';

/** The `order` values of GET /v1/redemptions (the reference's "List Redemptions"), each also with a leading `-`. */
export const REDEMPTION_ORDER_FIELDS = REDEMPTION_LIST_ORDERS;
export type RedemptionOrderField = (typeof REDEMPTION_LIST_ORDERS)[number];

/** `result`: one value, or several (repeated, or `result[0]=...` as the official client sends arrays). */
const resultList = (): ParamBuilder<RedemptionResult[] | undefined> => (label: string) =>
  array(
    string()
      .required()
      .oneOf(REDEMPTION_RESULTS, `${label} must be one of: ${REDEMPTION_RESULTS.join(', ')}`),
  )
    .transform((_value: unknown, original: unknown) => (typeof original === 'string' ? [original] : original))
    .typeError(`${label} must be text`)
    .optional()
    .default(undefined);

const redemptionsListParams = {
  limit: limit(),
  page: page(99),
  order: order(REDEMPTION_ORDER_FIELDS),
  result: resultList(),
  campaign: text(),
  customer: text(),
  'created_at[before]': date(),
  'created_at[after]': date(),
};

/** The voucher's own `redemption.url` (GET /v1/vouchers/{code}/redemptions): its page and limit. */
export const voucherRedemptionsQuerySchema = querySchema({ limit: limit(), page: page(99) });

const KNOWN_PARAMS = Object.keys(redemptionsListParams);
const listSchema = querySchema(redemptionsListParams);

export interface RedemptionsListQuery {
  limit: number;
  page: number;
  order: OrderBy<RedemptionOrderField>;
  where: RedemptionWhere;
  /** `customer` as given (an id or a source_id): the service resolves it into where.equal.customer_id. */
  customer?: string;
  createdBefore?: string;
  createdAfter?: string;
}

/**
 * GET /v1/redemptions's query, checked: the plain parameters and the `filters` deep object
 * become one set of column terms, and the conditions no index serves (checked in a bounded
 * window). A bracketed key the list does not know
 * (`created_at[since]`) is refused rather than ignored.
 */
export function parseRedemptionsListQuery(query: Record<string, unknown>): RedemptionsListQuery {
  const { terms, residual, rest } = readRedemptionFilters(gatherRepeated(query, 'result'));
  const unknown = Object.keys(rest).filter(
    (key) => (key.includes('[') || key === 'filters') && !KNOWN_PARAMS.includes(key),
  );
  if (unknown.length > 0) throw invalidQueryParams(`Unknown query parameter(s): ${unknown.join(', ')}`);
  const params = parse(listSchema, rest, 'query');
  const plain: Term[] = [
    ...(params.result === undefined ? [] : [{ column: 'result' as const, values: params.result, label: 'result' }]),
    ...(params.campaign === undefined
      ? []
      : [{ column: 'campaign_name' as const, values: [params.campaign], label: 'campaign' }]),
    ...(params.customer === undefined
      ? []
      : [{ column: 'customer_id' as const, values: [params.customer], label: 'customer' }]),
  ];
  const where = whereOf([...plain, ...terms], residual);
  const sort = params.order ?? { field: 'created_at', direction: 'desc' };
  refuseUnservedOrder(sort, Object.entries(where.labels));
  return {
    limit: params.limit,
    page: params.page,
    order: sort,
    where,
    customer: params.customer,
    createdBefore: params['created_at[before]'],
    createdAfter: params['created_at[after]'],
  };
}
