import { ValidationError, type Schema } from 'yup';
import { invalidPayload, invalidQueryParams, type AppError } from './errors.js';

/**
 * Validates without casting (a string "5" is not a number) and collects every message, so a
 * client learns all that is wrong with a body in one answer.
 */
function run<T>(schema: Schema<T>, value: unknown, toError: (details: string) => AppError): T {
  try {
    return schema.validateSync(value, { abortEarly: false, strict: true }) as T;
  } catch (error) {
    if (error instanceof ValidationError) throw toError(error.errors.join('; '));
    throw error;
  }
}

/** A request body against its schema: 400 invalid_payload with every message. */
export const validateBody = <T>(schema: Schema<T>, body: unknown): T => run(schema, body, invalidPayload);

/** Query parameters against their schema: 400 invalid_query_params. */
export const validateQuery = <T>(schema: Schema<T>, query: unknown): T => run(schema, query, invalidQueryParams);
