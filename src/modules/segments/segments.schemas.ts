import { array, mixed, object, string, type InferType } from 'yup';
import { idField, objectRule, shortText } from '../../lib/fields.js';
import { SEGMENT_TYPES } from './segments.table.js';

/** The reference's cap on the customers of one static segment. */
export const MAX_STATIC_CUSTOMERS = 20_000;
/** The reference's cap on auto-update and passive segments together. */
export const MAX_DYNAMIC_SEGMENTS = 100;

/** A static segment lists its customers; an auto-update or passive one has a filter instead. */
function typeFieldsProblem(body: Record<string, unknown>): string | undefined {
  if (body.type === 'static') {
    if (body.filter != null) return 'filter: only an auto-update or passive segment has a filter';
    if (body.customers == null) return 'customers is required for a static segment';
    return undefined;
  }
  if (!(SEGMENT_TYPES as readonly unknown[]).includes(body.type)) return undefined;
  if (body.customers != null) return 'customers: only a static segment lists customers';
  if (body.filter == null) return `filter is required for an ${body.type} segment`;
  return undefined;
}

/**
 * POST /v1/segments (the reference's SegmentsCreateRequestBody): a name, a type, and the
 * customers (ids or source ids) of a static segment or the filter of an auto-update or passive
 * one. The filter is checked by the condition engine afterwards.
 */
export const createSegmentSchema = object({
  name: shortText('name').required('name is required').min(1, 'name must not be empty'),
  type: string()
    .typeError('type must be one of static, auto-update, passive')
    .required('type is required')
    .oneOf(SEGMENT_TYPES, 'type must be one of static, auto-update, passive'),
  customers: array(idField('customers[]').required('customers[] must not be null'))
    .typeError('customers must be an array')
    .max(MAX_STATIC_CUSTOMERS, `customers must have at most ${MAX_STATIC_CUSTOMERS} entries`)
    .nullable()
    .default(undefined),
  filter: mixed().nullable(),
})
  .typeError('The body must be a JSON object')
  .nonNullable('The body must be a JSON object')
  .test(objectRule('type-fields', typeFieldsProblem));

export type CreateSegmentBody = InferType<typeof createSegmentSchema>;
