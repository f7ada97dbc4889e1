import { array, lazy, object, type InferType, type Schema } from 'yup';
import { idField, jsonObjectField, shortText } from '../../../lib/fields.js';
import type { Query } from '../../../lib/pagination.js';
import {
  date,
  gatherRepeated,
  limit,
  order,
  page,
  querySchema,
  text,
  type ParamBuilder,
  type QueryOf,
} from '../../../lib/query-params.js';
import { createCustomerSchema } from '../../customers/index.js';

/** The `order` values of GET /v1/loyalties/{id}/members (each also with a leading `-`). */
export const MEMBER_ORDER_FIELDS = ['created_at', 'updated_at', 'code'] as const;

/** At most this many `ids` in one list request. */
export const MAX_MEMBER_IDS = 100;

type CustomerBody = InferType<typeof createCustomerSchema>;

/**
 * add-member's `customer`: an object (upserted by id or source_id), or, as in the reference's
 * first example, a string naming the customer by id or source_id.
 */
const memberCustomer = lazy((value: unknown) =>
  typeof value === 'string'
    ? idField('customer')
    : createCustomerSchema
        .typeError('customer must be an object or a string')
        .required('customer is a required field')
        .default(undefined),
) as unknown as Schema<string | CustomerBody>;

/** The customer a string names: a customer id (cust_...) or else a source_id, upserted as the object form would be. */
export const memberCustomerInput = (customer: string | CustomerBody): CustomerBody =>
  typeof customer !== 'string' ? customer : customer.startsWith('cust_') ? { id: customer } : { source_id: customer };

/**
 * POST /v1/loyalties/{id}/members (add-member): the customer (upserted by id or source_id),
 * and optionally the card (`voucher`, its code) and the publication's source_id, metadata and
 * channel.
 */
export const addMemberSchema = object({
  customer: memberCustomer,
  voucher: idField('voucher').optional(),
  source_id: shortText('source_id').nullable().optional(),
  metadata: jsonObjectField('metadata').optional(),
  channel: shortText('channel').nullable().optional(),
}).typeError('The body must be a JSON object');

export type AddMemberBody = InferType<typeof addMemberSchema>;

/** `ids`: one or more card ids (repeated, or `ids[0]=...` as the official client sends them). */
const idList = (): ParamBuilder<string[] | undefined> => (label: string) =>
  array(shortText(label).required())
    .transform((_value: unknown, original: unknown) => (typeof original === 'string' ? [original] : original))
    .typeError(`${label} must be text`)
    .min(1)
    .max(MAX_MEMBER_IDS, `${label} may name at most ${MAX_MEMBER_IDS} cards`)
    .optional()
    .default(undefined);

const membersListParams = {
  limit: limit(),
  page: page(100),
  customer: text(),
  'created_at[before]': date(),
  'created_at[after]': date(),
  'updated_at[before]': date(),
  'updated_at[after]': date(),
  order: order(MEMBER_ORDER_FIELDS),
  code: text(),
  ids: idList(),
};

/** GET /v1/loyalties/{id}/members (list-members): newest first unless `order` says otherwise. */
export const membersListQuerySchema = querySchema(membersListParams);
export type MembersListQuery = QueryOf<typeof membersListParams>;

/**
 * The query as the official client sends it (qs: `ids[0]=a&ids[1]=b`), with its `ids[N]`
 * keys gathered under `ids` in order, beside any plain `ids`.
 */
export const gatherIds = (query: Query): Record<string, unknown> => gatherRepeated(query, 'ids');
