import { array, lazy, mixed, object, type Schema } from 'yup';
import { isPlainObject, jsonObjectField, shortText } from './fields.js';

/**
 * Bodies of the bulk updates (POST /v1/{customers,products,vouchers}/bulk/async and
 * /metadata/async). The request is checked for its shape only; each entry is checked by the
 * job with its object's own update schema, so one bad entry fails alone.
 */

/** The most entries one bulk update takes (docs/api.md "Bulk updates"): 10,000 fit the 16 MB body limit. */
export const MAX_BULK_UPDATE_ITEMS = 10_000;

/** No body (which arrives as `{}`), or null: the real API accepts it as a job with nothing to do. */
export const isNoBody = (body: unknown): boolean =>
  body == null || (isPlainObject(body) && Object.keys(body).length === 0);

/**
 * `schema`, or no body at all (an empty job), as one schema: validation is strict (nothing is
 * cast), so the empty job is a branch the body takes, not a default filled in.
 */
const orNoBody = <T>(schema: Schema<T>): Schema<T | null | Record<string, never>> =>
  lazy((body: unknown) => (isNoBody(body) ? mixed().nullable() : schema)) as unknown as Schema<
    T | null | Record<string, never>
  >;

/** An array of up to MAX_BULK_UPDATE_ITEMS objects (`many`: "customers"); no body or `[]` is an empty job, as in the reference. */
export const bulkUpdateBody = (many: string) =>
  orNoBody(
    array(mixed().test('object', '${path} must be an object', (v) => isPlainObject(v)))
      .typeError(`The body must be a JSON array of ${many}`)
      .required(`The body must be a JSON array of ${many}`)
      .max(MAX_BULK_UPDATE_ITEMS, `The body may hold at most ${MAX_BULK_UPDATE_ITEMS} ${many}`),
  );

/** The entries of a checked bulk body: none for no body. */
export const entriesOf = (body: unknown[] | null | Record<string, never>): unknown[] =>
  Array.isArray(body) ? body : [];

/** The keys a metadata update names: up to MAX_BULK_UPDATE_ITEMS non-empty strings (none: an empty job). */
const keyList = (listField: string) =>
  array(shortText('${path}').min(1, '${path} must not be empty').nonNullable('${path} must be a string'))
    .typeError(`${listField} must be an array of strings`)
    .required(`${listField} is required`)
    .max(MAX_BULK_UPDATE_ITEMS, `${listField} may hold at most ${MAX_BULK_UPDATE_ITEMS} items`);

const sharedMetadata = () => jsonObjectField('metadata').required('metadata is required');

/** POST /v1/{customers,products}/metadata/async: `{source_ids, metadata}`, each source_id given the same metadata; no body is an empty job. */
export const sourceIdsMetadataBody = orNoBody(
  object({ source_ids: keyList('source_ids'), metadata: sharedMetadata() }).typeError('The body must be a JSON object'),
);

/** POST /v1/vouchers/metadata/async: `{codes, metadata}`; no body is an empty job. */
export const codesMetadataBody = orNoBody(
  object({ codes: keyList('codes'), metadata: sharedMetadata() }).typeError('The body must be a JSON object'),
);
