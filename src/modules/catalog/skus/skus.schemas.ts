import { object, type InferType } from 'yup';
import { idField, jsonObjectField, nullableText, shortText } from '../../../lib/fields.js';
import { imageUrlField, priceField } from '../catalog.schemas.js';

const skuFields = {
  source_id: nullableText('source_id'),
  sku: nullableText('sku'),
  price: priceField('price'),
  currency: shortText('currency').nullable().typeError('currency must be a string or null'),
  attributes: jsonObjectField('attributes'),
  metadata: jsonObjectField('metadata'),
  image_url: imageUrlField('image_url'),
};

/** POST /v1/products/{id}/skus: an existing `id` or `source_id` of this product updates that SKU. */
export const createSkuSchema = object({ id: idField('id'), ...skuFields })
  .typeError('The body must be a JSON object')
  .nonNullable('The body must be a JSON object');

/** PUT /v1/products/{id}/skus/{skuId}: the fields given replace the stored ones. */
export const updateSkuSchema = object(skuFields)
  .typeError('The body must be a JSON object')
  .nonNullable('The body must be a JSON object');

export type CreateSkuInput = InferType<typeof createSkuSchema>;
export type UpdateSkuInput = InferType<typeof updateSkuSchema>;
