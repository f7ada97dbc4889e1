import { setLocale, ValidationError, type Schema } from 'yup';
import { AppError, errorCatalogue, invalidPayload, invalidQueryParams, UsageError, type ErrorKey } from './errors.js';
import { presentFieldsSchema } from './present-fields.js';
import { passesStrict } from './strict-pass.js';

/**
 * Every field of a wrong type says what it should be, without echoing the value back
 * ("active must be a boolean", not yup's "must be a `boolean` type, but the final value was: ...").
 */
const ARTICLE: Record<string, string> = { object: 'an object', array: 'an array', integer: 'an integer' };
setLocale({
  mixed: {
    notType: ({ path, type }: { path: string; type: string }) => `${path} must be ${ARTICLE[type] ?? `a ${type}`}`,
  },
});

/**
 * Where an input comes from, which decides how it is checked and how a refusal reads:
 * - body: a request body (or a body a service or CLI command builds): strict, nothing is cast
 *   ("5" is not a number); 400 invalid_payload with every message; a body that should be an
 *   object and is not (a scalar, null, an array) is named as such first.
 * - hot body: a hot path's body (validations and redemptions, docs/performance.md "Hot paths"):
 *   as body, with each object checked only for the fields it has (present-fields.ts; the
 *   schema must not read `this.parent`). A validation's body with a 3-item order: ~360 us of
 *   yup down to ~130 us.
 * - item: a bulk job's item (an import line): as hot body, but a wrong shape is named by the
 *   item schema's own type message ("The item must be an object"), since the item is not the
 *   request's body. Items are many, hence the present fields.
 * - query: a query string against a `querySchema` (lib/query-params.ts): each parameter parses
 *   its own text; 400 invalid_query_params with every message.
 * - nested query: a query nested into a body's shape (lib/nested-query.ts; GET
 *   /client/v1/validate): checked as a hot body, refused as a query.
 * - flags: a command's flags against a `flagsSchema`: each flag parses its own text; a usage
 *   error (exit 2) with every message.
 * - form: a body whose refusals carry keys of their own (the OAuth forms): each test is named
 *   by its catalogue key, the first failed test decides the key; every message goes into details.
 */
export type Where = 'body' | 'hot body' | 'item' | 'query' | 'nested query' | 'flags' | 'form';

type Refusal = (details: string, error: ValidationError) => Error;

interface Door {
  /** Strict: the value passes as it is or not at all; otherwise each parameter parses its text. */
  strict: boolean;
  /** Checked only for the fields each object has (present-fields.ts). */
  presentFields: boolean;
  /** An object schema refuses a value that is not a plain object with "The body must be a JSON object". */
  objectBody: boolean;
  refuse: Refusal;
}

/** The catalogue key a failed test names (a missing required field is `missing_parameters`). */
function keyOfTest(type: string | undefined): ErrorKey {
  if (type === 'required' || type === 'optionality') return 'missing_parameters';
  return type !== undefined && type in errorCatalogue ? (type as ErrorKey) : 'invalid_payload';
}

const keyedRefusal: Refusal = (details, error) => new AppError(keyOfTest(error.inner[0]?.type ?? error.type), details);

const DOORS: Record<Where, Door> = {
  body: { strict: true, presentFields: false, objectBody: true, refuse: invalidPayload },
  'hot body': { strict: true, presentFields: true, objectBody: true, refuse: invalidPayload },
  item: { strict: true, presentFields: true, objectBody: false, refuse: invalidPayload },
  query: { strict: false, presentFields: false, objectBody: false, refuse: invalidQueryParams },
  'nested query': { strict: true, presentFields: true, objectBody: false, refuse: invalidQueryParams },
  flags: { strict: false, presentFields: false, objectBody: false, refuse: (details) => new UsageError(details) },
  form: { strict: true, presentFields: false, objectBody: true, refuse: keyedRefusal },
};

const isPlainObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The one validation door: `input` from `where` against `schema`, the value it stands for, or
 * the refusal `where` names with every message, so a client learns all that is wrong in one
 * answer. A strict input that passes comes back as it was, told by the lean walk of the same
 * schema (strict-pass.ts); one that does not is validated by yup for every message.
 */
export function parse<T>(schema: Schema<T>, input: unknown, where: Where): T {
  const door = DOORS[where];
  if (door.objectBody && schema.type === 'object' && !isPlainObject(input))
    throw invalidPayload('The body must be a JSON object');
  if (door.strict && passesStrict(schema as Schema<unknown>, input)) return input as T;
  const checked = door.presentFields ? (presentFieldsSchema(schema) as Schema<T>) : schema;
  try {
    return checked.validateSync(input, { abortEarly: false, strict: door.strict, stripUnknown: !door.strict }) as T;
  } catch (error) {
    if (error instanceof ValidationError) throw door.refuse(error.errors.join('; '), error);
    throw error;
  }
}
