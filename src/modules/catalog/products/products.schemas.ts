import { object, type InferType } from 'yup';
import { idField, jsonObjectField, nullableText } from '../../../lib/fields.js';
import { imageUrlField, priceField, stringArrayField } from '../catalog.schemas.js';

const productFields = {
  source_id: nullableText('source_id'),
  name: nullableText('name'),
  price: priceField('price'),
  attributes: stringArrayField('attributes'),
  metadata: jsonObjectField('metadata'),
  image_url: imageUrlField('image_url'),
};

/** POST /v1/products: every field optional; an existing `id` or `source_id` updates that product. */
export const createProductSchema = object({ id: idField('id'), ...productFields })
  .typeError('The body must be a JSON object')
  .nonNullable('The body must be a JSON object');

/** PUT /v1/products/{id}: the fields given replace the stored ones; others stay. */
export const updateProductSchema = object(productFields)
  .typeError('The body must be a JSON object')
  .nonNullable('The body must be a JSON object');

/** An entry of POST /v1/products/bulk/async: the PUT body, naming its product by source_id. */
export const bulkProductSchema = updateProductSchema.shape({
  source_id: nullableText('source_id').required('source_id is required'),
});

export type CreateProductInput = InferType<typeof createProductSchema>;
export type UpdateProductInput = InferType<typeof updateProductSchema>;
