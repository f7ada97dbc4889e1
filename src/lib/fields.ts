import { array, mixed, number, string, type ISchema, type TestConfig } from 'yup';
import { jsonDepth, LIMITS } from './limits.js';

/**
 * The field builders every schema shares, so the same kind of field has the same type
 * message and the same limit everywhere (docs/api.md, "Limits").
 */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A rule between an object's fields (required together, one of, allowed only with a type), for
 * `object(...).test(...)`: the problem `problemOf` finds is the message, after the fields' own.
 * Anything but a plain object passes: its type test speaks for it.
 */
export const objectRule = (
  name: string,
  problemOf: (value: Record<string, unknown>) => string | undefined,
): TestConfig<unknown> => ({
  name,
  test(value) {
    const problem = isPlainObject(value) ? problemOf(value) : undefined;
    return problem === undefined || this.createError({ message: problem });
  },
});

/**
 * An integer the database stores exactly: yup's integer() passes 1e308 (Number.isInteger),
 * which a STRICT INTEGER column refuses with an error (a 500). Counts, amounts in minor units,
 * points and ranks are all within Number.MAX_SAFE_INTEGER; a `.min()` after this replaces the lower bound.
 */
export const wholeNumber = () => number().integer().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** Short text: names, codes, source ids, e-mails, phones (LIMITS.shortText characters). */
export const shortText = (label: string, max: number = LIMITS.shortText) =>
  string().typeError(`${label} must be a string`).max(max, `${label} must be at most ${max} characters`);

/** Longer free text: descriptions, additional info (LIMITS.longText characters). */
export const longText = (label: string) => shortText(label, LIMITS.longText);

/** A voucher code: short text with at least one character that is not white space. */
export const voucherCodeField = () =>
  shortText('code')
    .min(1, 'code must not be empty')
    .test('not-blank', 'code must hold a character other than white space', (v) => v === undefined || v.trim() !== '');

/** An id or source id given by the caller: short text, not empty. */
export const idField = (label: string) => shortText(label).min(1, `${label} must not be empty`);

/** Nullable short text that is not empty when given. */
export const nullableText = (label: string) =>
  string()
    .nullable()
    .typeError(`${label} must be a string or null`)
    .min(1, `${label} must not be empty`)
    .max(LIMITS.shortText, `${label} must be at most ${LIMITS.shortText} characters`);

/** Whether a stored JSON value (metadata, a SKU's attributes, a product's attribute list, a collection's filter) fits LIMITS.metadataBytes. */
export const withinJsonBytes = (value: unknown): boolean =>
  Buffer.byteLength(JSON.stringify(value)) <= LIMITS.metadataBytes;
export const jsonSizeMessage = (label: string): string =>
  `${label} must be at most ${LIMITS.metadataBytes} bytes as JSON`;

/**
 * A free-form JSON object (metadata, attributes): not an array, not null, at most
 * LIMITS.metadataBytes as JSON and LIMITS.jsonDepth deep. Import items do not pass the HTTP
 * body checks, so the depth is checked here too.
 */
export const jsonObjectField = (label: string) =>
  mixed<Record<string, unknown>>((v): v is Record<string, unknown> => isPlainObject(v))
    .typeError(`${label} must be an object`)
    .nonNullable(`${label} must be an object`)
    .test(
      'json-depth',
      `${label} must nest at most ${LIMITS.jsonDepth} levels deep`,
      (v) => v == null || jsonDepth(v) <= LIMITS.jsonDepth,
    )
    .test(
      'json-size',
      jsonSizeMessage(label),
      (v) => v == null || jsonDepth(v) > LIMITS.jsonDepth || withinJsonBytes(v),
    );

/** A body that is an array of `many` (bulk creates): 1 to `max` items, each checked by `item`. */
export function bulkBody<T>(item: ISchema<T>, one: string, many: string, max: number) {
  const message = `The body must be a JSON array of ${many}`;
  return array(item)
    .typeError(message)
    .nonNullable(message)
    .min(1, `The body must hold at least one ${one}`)
    .max(max, `The body must hold at most ${max} ${many}`)
    .required(message);
}
