import { number, object, type InferType } from 'yup';
import { shortText } from '../../lib/fields.js';

/**
 * Bodies of POST and PUT /v1/categories (CategoriesCreateRequestBody, CategoriesUpdateRequestBody):
 * a `name` and a `hierarchy`, a whole number from 0 (lower categories come first when the
 * stacking rules sort by CATEGORY_HIERARCHY).
 */
const NOT_AN_OBJECT = 'The body must be a JSON object';

const fields = {
  name: shortText('name').min(1, 'name must not be empty'),
  hierarchy: number()
    .typeError('hierarchy must be an integer')
    .test(
      'whole',
      'hierarchy must be an integer of at least 0',
      (v) => v == null || (Number.isSafeInteger(v) && v >= 0),
    ),
};

/** POST: both are required. */
export const createCategorySchema = object({
  name: fields.name.defined('name is required').nonNullable('name is required'),
  hierarchy: fields.hierarchy.defined('hierarchy is required').nonNullable('hierarchy is required'),
})
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT);

/** PUT: the fields given change. */
export const updateCategorySchema = object({
  name: fields.name.nonNullable('name must not be null'),
  hierarchy: fields.hierarchy.nonNullable('hierarchy must not be null'),
})
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT);

export type CreateCategoryBody = InferType<typeof createCategorySchema>;
export type UpdateCategoryBody = InferType<typeof updateCategorySchema>;
