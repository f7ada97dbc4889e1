import { array, mixed, object } from 'yup';
import { isPlainObject, jsonObjectField, shortText } from './fields.js';

/**
 * Bodies of the bulk updates (POST /v1/{customers,products,vouchers}/bulk/async and
 * /metadata/async). The request is checked for its shape only; each entry is checked by the
 * job with its object's own update schema, so one bad entry fails alone.
 */

/** The most entries one bulk update takes (docs/api.md "Bulk updates"): 10,000 fit the 16 MB body limit. */
export const MAX_BULK_UPDATE_ITEMS = 10_000;

/** An array of 1 to MAX_BULK_UPDATE_ITEMS objects (`many`: "customers"). */
export const bulkUpdateBody = (many: string) =>
  array(mixed().test('object', '${path} must be an object', (v) => isPlainObject(v)))
    .typeError(`The body must be a JSON array of ${many}`)
    .required(`The body must be a JSON array of ${many}`)
    .min(1, `The body must hold at least one of the ${many}`)
    .max(MAX_BULK_UPDATE_ITEMS, `The body may hold at most ${MAX_BULK_UPDATE_ITEMS} ${many}`);

/** The keys a metadata update names: 1 to MAX_BULK_UPDATE_ITEMS non-empty strings. */
const keyList = (listField: string) =>
  array(shortText('${path}').min(1, '${path} must not be empty').nonNullable('${path} must be a string'))
    .typeError(`${listField} must be an array of strings`)
    .required(`${listField} is required`)
    .min(1, `${listField} must hold at least one item`)
    .max(MAX_BULK_UPDATE_ITEMS, `${listField} may hold at most ${MAX_BULK_UPDATE_ITEMS} items`);

const sharedMetadata = () => jsonObjectField('metadata').required('metadata is required');

/** POST /v1/{customers,products}/metadata/async: `{source_ids, metadata}`, each source_id given the same metadata. */
export const sourceIdsMetadataBody = object({ source_ids: keyList('source_ids'), metadata: sharedMetadata() }).typeError('The body must be a JSON object');

/** POST /v1/vouchers/metadata/async: `{codes, metadata}`. */
export const codesMetadataBody = object({ codes: keyList('codes'), metadata: sharedMetadata() }).typeError('The body must be a JSON object');
