import { array, mixed, object, string, type InferType } from 'yup';
import { EXPORTED_OBJECTS } from '../../lib/enums.js';
import { isPlainObject, jsonSizeMessage, withinJsonBytes } from '../../lib/fields.js';
import { limit, order, page, querySchema, type QueryOf } from '../../lib/query-params.js';

/** At most this many fields in one export (the reference's field lists are shorter). */
export const MAX_EXPORT_FIELDS = 100;

const NOT_AN_OBJECT = 'parameters must be an object';

/** An export's `parameters` (also the body of a card's transactions export, modules/ledgers). */
export const exportParametersSchema = object({
  order: string().nullable().max(100, 'parameters.order must be at most 100 characters'),
  fields: array(
    string()
      .required('parameters.fields must hold strings')
      .max(200, 'parameters.fields items must be at most 200 characters'),
  )
    .nullable()
    .max(MAX_EXPORT_FIELDS, `parameters.fields must hold at most ${MAX_EXPORT_FIELDS} fields`),
  filters: mixed<Record<string, unknown>>((value): value is Record<string, unknown> => isPlainObject(value))
    .nullable()
    .typeError('parameters.filters must be an object')
    .test('json-size', jsonSizeMessage('parameters.filters'), (v) => v == null || withinJsonBytes(v)),
  response_format: string().nullable().oneOf(['CSV', null], 'parameters.response_format must be CSV'),
})
  .noUnknown('parameters holds unknown keys: ${unknown}')
  .nullable()
  .typeError(NOT_AN_OBJECT)
  .default(undefined);

/**
 * POST /v1/exports (ExportsCreateRequestBody). The body's shape is checked here (400
 * invalid_payload); whether the fields, order and filters fit the exported object is checked
 * against its source (export-params.rules.ts, 400 invalid_export_params). `response_format` is
 * accepted as the reference's answers show it; CSV is the only format.
 */
export const createExportSchema = object({
  exported_object: string()
    .required('exported_object is required')
    .oneOf(EXPORTED_OBJECTS, `exported_object must be one of: ${EXPORTED_OBJECTS.join(', ')}`),
  parameters: exportParametersSchema,
}).noUnknown('the body holds unknown keys: ${unknown}');

export type CreateExportBody = InferType<typeof createExportSchema>;

/** GET /v1/exports: the reference's limit, page and order (ParameterOrderListExports). */
export const EXPORT_LIST_ORDER_FIELDS = ['created_at', 'status'] as const;

const exportsListParams = { limit: limit(), page: page(100), order: order(EXPORT_LIST_ORDER_FIELDS) };
export const exportsListQuerySchema = querySchema(exportsListParams);
export type ExportsListQuery = QueryOf<typeof exportsListParams>;
