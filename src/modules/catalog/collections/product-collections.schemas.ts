import { array, mixed, object, string, type InferType } from 'yup';
import { jsonSizeMessage, shortText, withinJsonBytes, objectRule } from '../../../lib/fields.js';
import { date, limit, order, page, querySchema, type QueryOf } from '../../../lib/query-params.js';
import { ORDER_FIELDS } from '../catalog.schemas.js';

const memberSchema = object({
  id: shortText('products[].id').required('products[].id is required'),
  object: string()
    .typeError('products[].object must be "product" or "sku"')
    .required('products[].object is required')
    .oneOf(['product', 'sku'] as const, 'products[].object must be "product" or "sku"'),
  product_id: shortText('products[].product_id'),
}).typeError('products[] items must be objects');

/** A STATIC collection lists its products; an AUTO_UPDATE one has a filter instead. */
function typeFieldsProblem(body: Record<string, unknown>): string | undefined {
  if (body.type === 'STATIC') {
    if (body.filter !== undefined) return 'filter: only an AUTO_UPDATE collection has a filter';
    if (body.products === undefined) return 'products is required for a STATIC collection';
  }
  if (body.type === 'AUTO_UPDATE') {
    if (body.products !== undefined) return 'products: only a STATIC collection lists products';
    if (body.filter === undefined) return 'filter is required for an AUTO_UPDATE collection';
  }
  return undefined;
}

/** POST /v1/product-collections. The filter is checked by the condition engine afterwards. */
export const createCollectionSchema = object({
  name: shortText('name').required('name is required').min(1, 'name must not be empty'),
  type: string()
    .typeError('type must be "STATIC" or "AUTO_UPDATE"')
    .required('type is required')
    .oneOf(['STATIC', 'AUTO_UPDATE'] as const, 'type must be "STATIC" or "AUTO_UPDATE"'),
  products: array(memberSchema).typeError('products must be an array'),
  filter: mixed().test('json-size', jsonSizeMessage('filter'), (v) => v === undefined || withinJsonBytes(v)),
})
  .typeError('The body must be a JSON object')
  .nonNullable('The body must be a JSON object')
  .test(objectRule('type-fields', typeFieldsProblem));

export type CreateCollectionInput = InferType<typeof createCollectionSchema>;
export type CollectionMemberInput = InferType<typeof memberSchema>;

const collectionListParams = { limit: limit(), page: page(100), order: order(ORDER_FIELDS) };
export const collectionListQuerySchema = querySchema(collectionListParams);

export interface CollectionListQuery {
  limit: number;
  offset: number;
  sort: { field: 'created_at' | 'type'; direction: 'asc' | 'desc' };
}

/**
 * GET /v1/product-collections (the reference's "List Product Collections"). `type` sorts by type (then creation); every other
 * order value sorts by creation: a collection is never updated, and has no code, campaign or
 * category.
 */
export function collectionListWindow(q: QueryOf<typeof collectionListParams>): CollectionListQuery {
  return {
    limit: q.limit,
    offset: (q.page - 1) * q.limit,
    sort: { field: q.order?.field === 'type' ? 'type' : 'created_at', direction: q.order?.direction ?? 'asc' },
  };
}

export interface MembersQuery {
  limit: number;
  offset: number;
  sort: { field: 'created_at' | 'updated_at'; direction: 'asc' | 'desc' };
  /** `starting_after`: only members created after it (before it, in a descending order). */
  startingAfter?: string;
}

const membersParams = { limit: limit(), page: page(100), order: order(ORDER_FIELDS), starting_after: date() };

/** GET /v1/product-collections/{id}/products: limit, page, order, starting_after. */
export const membersQuerySchema = querySchema(membersParams);

export function membersWindow(q: QueryOf<typeof membersParams>): MembersQuery {
  return {
    limit: q.limit,
    offset: (q.page - 1) * q.limit,
    sort: {
      field: q.order?.field === 'updated_at' ? 'updated_at' : 'created_at',
      direction: q.order?.direction ?? 'asc',
    },
    startingAfter: q.starting_after,
  };
}
