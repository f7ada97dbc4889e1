import { fieldCatalog, readQueryFilters, type Condition } from '../../engine/conditions/index.js';
import {
  PUBLICATION_LIST_ORDERS,
  PUBLICATION_RESULTS,
  PUBLICATION_VOUCHER_TYPES,
  type PublicationOrderField,
} from '../../lib/enums.js';
import { invalidQueryParams } from '../../lib/errors.js';
import type { OrderBy } from '../../lib/pagination.js';
import { limit, oneOf, order, page, querySchema, refuseUnservedOrder, text } from '../../lib/query-params.js';
import { parse } from '../../lib/validate.js';

/** The `order` values of GET /v1/publications, each also with a leading `-`. */
export const PUBLICATION_ORDER_FIELDS = PUBLICATION_LIST_ORDERS;

/** The columns a list filter restricts, each with its (column, created_at) index (sql/0020). */
export type PublicationFilterColumn =
  | 'customer_id'
  | 'voucher_code'
  | 'campaign_name'
  | 'result'
  | 'voucher_type'
  | 'is_referral_code'
  | 'source_id'
  | 'failure_code';

export interface PublicationsListQuery {
  limit: number;
  page: number;
  order: OrderBy<PublicationOrderField>;
  /** Column equalities; `customer` (an id or source_id) is resolved by the service. */
  equal: Partial<Record<PublicationFilterColumn, string | number>>;
  customer?: string;
}

const VOUCHER_TYPES = Object.keys(PUBLICATION_VOUCHER_TYPES) as Array<keyof typeof PUBLICATION_VOUCHER_TYPES>;

const params = {
  limit: limit(),
  page: page(100),
  order: order(PUBLICATION_ORDER_FIELDS),
  campaign: text(),
  customer: text(),
  voucher: text(),
  result: oneOf(PUBLICATION_RESULTS),
  voucher_type: oneOf(VOUCHER_TYPES),
  is_referral_code: oneOf(['true', 'false'] as const),
  source_id: text(),
};
const listSchema = querySchema(params);

/** The `filters` deep object's fields (the reference's ParameterFiltersListPublications that an index serves). */
const FILTER_COLUMN: Record<string, PublicationFilterColumn> = {
  customer_id: 'customer_id',
  campaign_name: 'campaign_name',
  result: 'result',
  voucher_type: 'voucher_type',
  is_referral_code: 'is_referral_code',
  source_id: 'source_id',
  failure_code: 'failure_code',
};
const CATALOG = fieldCatalog(Object.fromEntries(Object.keys(FILTER_COLUMN).map((field) => [field, 'string' as const])));
const SERVED = `${Object.keys(FILTER_COLUMN).join(', ')} with $is (or $in with one value), joined by "and"`;
const accepts = ({ operator, operands }: Condition): boolean =>
  operator === '$is' || (operator === '$in' && operands.length === 1);

/** A value as stored: voucher_type's names map to the voucher's type, is_referral_code to 0 or 1. */
function stored(column: PublicationFilterColumn, raw: string, label: string): string | number {
  if (column === 'voucher_type') {
    const type = PUBLICATION_VOUCHER_TYPES[raw as keyof typeof PUBLICATION_VOUCHER_TYPES];
    if (type === undefined) throw invalidQueryParams(`${label} must be one of: ${VOUCHER_TYPES.join(', ')}`);
    return type;
  }
  if (column === 'is_referral_code') {
    if (raw !== 'true' && raw !== 'false') throw invalidQueryParams(`${label} must be true or false`);
    return raw === 'true' ? 1 : 0;
  }
  if (column === 'result' && !(PUBLICATION_RESULTS as readonly string[]).includes(raw))
    throw invalidQueryParams(`${label} must be one of: ${PUBLICATION_RESULTS.join(', ')}`);
  return raw;
}

/** GET /v1/publications's query: the plain parameters and the `filters` deep object as one set of column equalities. */
export function parsePublicationsListQuery(query: Record<string, unknown>): PublicationsListQuery {
  const read = readQueryFilters(query, { catalog: CATALOG, accepts, served: SERVED });
  if (!read.ok) throw invalidQueryParams(read.error);
  // A plain parameter the list does not know is ignored, as the real API ignores it (and as
  // the other lists do); a bracketed one is refused: a filter must never be dropped silently.
  const unknown = Object.keys(read.rest).filter((key) => (key.includes('[') || key === 'filters') && !(key in params));
  if (unknown.length > 0) throw invalidQueryParams(`Unknown query parameter(s): ${unknown.join(', ')}`);
  const p = parse(listSchema, read.rest, 'query');
  const terms: Array<[PublicationFilterColumn, string | undefined, string]> = [
    ['campaign_name', p.campaign, 'campaign'],
    ['voucher_code', p.voucher, 'voucher'],
    ['result', p.result, 'result'],
    ['voucher_type', p.voucher_type, 'voucher_type'],
    ['is_referral_code', p.is_referral_code, 'is_referral_code'],
    ['source_id', p.source_id, 'source_id'],
    ['customer_id', p.customer, 'customer'],
    ...read.conditions.map((c): [PublicationFilterColumn, string, string] => [
      FILTER_COLUMN[c.field] as PublicationFilterColumn,
      c.operands[0] as string,
      `filters.${c.field}`,
    ]),
  ];
  const equal: PublicationsListQuery['equal'] = {};
  const labels = new Map<string, string>();
  for (const [column, raw, label] of terms) {
    if (raw === undefined) continue;
    const earlier = labels.get(column);
    if (earlier !== undefined)
      throw invalidQueryParams(`${label} restricts what ${earlier} restricts already; give it once`);
    labels.set(column, label);
    if (column !== 'customer_id' || label !== 'customer') equal[column] = stored(column, raw, label);
  }
  const sort = p.order ?? { field: 'created_at', direction: 'desc' };
  refuseUnservedOrder(sort, labels);
  return { limit: p.limit, page: p.page, order: sort, equal, customer: p.customer };
}
