/**
 * Compares the shape of an answer with a recorded answer of the real API (a reference
 * example): values may differ (ids, dates, amounts), but absent, null, empty and zero are
 * four different answers to a client (`if (res.inapplicable_redeemables)` takes another branch
 * on `[]`), so each is reported where the two answers disagree on it.
 *
 * Every difference is one line `path: what`, the path written as a client reads it
 * (`redeemables[0].order.items`). Compared: the kind of every value (null, boolean, number,
 * string, array, object) and the keys of every object. Not compared, as they are the data of
 * the request rather than the API's shape: how many items an array holds (arrays are compared
 * item by item up to the shorter length), and the keys of the maps a caller or the data names
 * (FREE_MAPS: `metadata`, a customer's `loyalty.campaigns`...), whose values are still compared.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const kindOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
};

const describe = (value: unknown): string => {
  const kind = kindOf(value);
  if (kind === 'array') return (value as unknown[]).length === 0 ? '[]' : 'array';
  if (kind === 'object') return Object.keys(value as object).length === 0 ? '{}' : 'object';
  if (kind === 'string' && value === '') return '""';
  if (kind === 'number' && value === 0) return '0';
  return kind;
};

/** Objects keyed by the caller's data (metadata keys, campaign names, redemption ids, rule numbers). */
export const FREE_MAPS = new Set([
  'metadata',
  'campaigns',
  'redemptions',
  'attributes',
  'applicable_redeemables_category_limits',
  'conditions',
  'rules',
  // A loyalty tier's earning rules and rewards, keyed by earning rule and reward assignment.
  'earning_rules',
  'rewards',
]);

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

const lastKey = (path: string): string => path.slice(path.lastIndexOf('.') + 1);

function diffObjects(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
  path: string,
  out: string[],
): void {
  if (FREE_MAPS.has(lastKey(path))) return diffFreeMap(expected, actual, path, out);
  for (const key of Object.keys(expected)) {
    if (!(key in actual)) out.push(`${join(path, key)}: absent, the example has ${describe(expected[key])}`);
  }
  for (const key of Object.keys(actual)) {
    if (!(key in expected)) out.push(`${join(path, key)}: ${describe(actual[key])}, absent in the example`);
    else diffAt(expected[key], actual[key], join(path, key), out);
  }
}

/** Maps whose emptiness is the caller's too (an order without metadata); every other map's `{}` is a shape. */
const CALLER_MAPS = new Set(['metadata', 'attributes']);

/**
 * A map's own keys are data: each of its values is compared with the example's value of the
 * same key, else its first value; `{}` against a filled map is reported but for CALLER_MAPS.
 */
function diffFreeMap(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
  path: string,
  out: string[],
): void {
  const [want, got] = [describe(expected), describe(actual)];
  if (want !== got && !CALLER_MAPS.has(lastKey(path))) out.push(`${path}: ${got}, the example has ${want}`);
  const sample = Object.values(expected)[0];
  if (sample === undefined || kindOf(sample) !== 'object') return;
  for (const [key, value] of Object.entries(actual))
    diffAt(key in expected ? expected[key] : sample, value, join(path, key), out);
}

function diffArrays(expected: unknown[], actual: unknown[], path: string, out: string[]): void {
  const shared = Math.min(expected.length, actual.length);
  for (let i = 0; i < shared; i++) diffAt(expected[i], actual[i], `${path}[${i}]`, out);
}

function diffAt(expected: unknown, actual: unknown, path: string, out: string[]): void {
  const want = kindOf(expected);
  const got = kindOf(actual);
  const at = path === '' ? '(root)' : path;
  if (want !== got) {
    out.push(`${at}: ${describe(actual)}, the example has ${describe(expected)}`);
    return;
  }
  if (want === 'object')
    return diffObjects(expected as Record<string, unknown>, actual as Record<string, unknown>, path, out);
  if (want === 'array') diffArrays(expected as unknown[], actual as unknown[], at, out);
}

/** The differences of shape between a reference example and an answer, one line each; [] when they agree. */
export function shapeDiff(expected: unknown, actual: unknown): string[] {
  const out: string[] = [];
  diffAt(expected, actual, '', out);
  return out;
}
