import { mixed, number, string } from 'yup';
import { jsonSizeMessage, withinJsonBytes } from '../../lib/fields.js';
import { LIMITS } from '../../lib/limits.js';
import { date, limit, order, page, querySchema, type QueryOf } from '../../lib/query-params.js';
import type { ListWindow } from './catalog-list.types.js';

/** An HTTPS address whose path ends in .png or .jpg (the reference's Product object, `image_url`). */
export function isImageUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && /\.(png|jpg)$/i.test(url.pathname);
  } catch {
    return false;
  }
}

export const imageUrlField = (label: string) =>
  string()
    .nullable()
    .max(LIMITS.url, `${label} must be at most ${LIMITS.url} characters`)
    .test('image-url', `${label} must be an HTTPS address of a .png or .jpg file`, (v) => v == null || isImageUrl(v));

export const priceField = (label: string) =>
  number()
    .nullable()
    .typeError(`${label} must be an integer or null`)
    .test('safe-integer', `${label} must be an integer or null`, (v) => v == null || Number.isSafeInteger(v));

export const stringArrayField = (label: string) =>
  mixed<string[]>((v): v is string[] => Array.isArray(v) && v.every((item) => typeof item === 'string'))
    .typeError(`${label} must be an array of strings`)
    .test(
      'item-length',
      `${label} must hold strings of at most ${LIMITS.shortText} characters`,
      (v) => v == null || v.every((item) => item.length <= LIMITS.shortText),
    )
    .test('json-size', jsonSizeMessage(label), (v) => v == null || withinJsonBytes(v))
    .nonNullable(`${label} must be an array of strings`);

/** The order values of the reference's list operations ("List Product Collections", "List SKUs in Product"). */
export const ORDER_FIELDS = ['created_at', 'updated_at', 'type', 'code', 'campaign', 'category'] as const;

const catalogListParams = {
  limit: limit(),
  page: page(100),
  order: order(ORDER_FIELDS),
  start_date: date(),
  end_date: date(),
};

/** The query of GET /v1/products and GET /v1/products/{id}/skus (the reference's "List SKUs in Product"). */
export const catalogListQuerySchema = querySchema(catalogListParams);

/**
 * The list window of a catalog query. `created_at` and `updated_at` sort by that field; the
 * other order values name fields products and SKUs do not have, so they keep the creation
 * order, in the direction asked.
 */
export function catalogListWindow(q: QueryOf<typeof catalogListParams>): ListWindow {
  return {
    limit: q.limit,
    offset: (q.page - 1) * q.limit,
    sort: {
      field: q.order?.field === 'updated_at' ? 'updated_at' : 'created_at',
      direction: q.order?.direction ?? 'asc',
    },
    createdFrom: q.start_date,
    createdTo: q.end_date,
  };
}
