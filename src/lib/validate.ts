import { ValidationError, type Schema } from 'yup';
import { invalidPayload, invalidQueryParams, type AppError } from './errors.js';
import type { Query } from './pagination.js';

/** Runs a schema and collects every message, so a client learns all that is wrong in one answer. */
function run<T>(schema: Schema<T>, value: unknown, strict: boolean, toError: (details: string) => AppError): T {
  try {
    return schema.validateSync(value, { abortEarly: false, strict, stripUnknown: !strict }) as T;
  } catch (error) {
    if (error instanceof ValidationError) throw toError(error.errors.join('; '));
    throw error;
  }
}

/**
 * A request body (or a CLI command's flags, or a job's item) against its schema: 400
 * invalid_payload with every message. Strict: nothing is cast, so "5" is not a number.
 */
export const validateBody = <T>(schema: Schema<T>, body: unknown): T => run(schema, body, true, invalidPayload);

/**
 * A query string against a schema of `querySchema` (lib/query-params.ts): 400
 * invalid_query_params with every message. Query values are text, so each parameter parses its own.
 */
export const validateQuery = <T>(schema: Schema<T>, query: Query | Record<string, unknown>): T => run(schema, query, false, invalidQueryParams);
