/**
 * Compares the shape of an answer with a recorded answer of the real API (a reference
 * example): values may differ (ids, dates, amounts), but absent, null, empty and zero are
 * four different answers to a client (`if (res.inapplicable_redeemables)` takes another branch
 * on `[]`), so each is reported where the two answers disagree on it.
 *
 * Every difference is one line `path: what`, the path written as a client reads it
 * (`redeemables[0].order.items`). Arrays are compared item by item up to the shorter length.
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

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

function diffObjects(expected: Record<string, unknown>, actual: Record<string, unknown>, path: string, out: string[]): void {
  for (const key of Object.keys(expected)) {
    if (!(key in actual)) out.push(`${join(path, key)}: absent, the example has ${describe(expected[key])}`);
  }
  for (const key of Object.keys(actual)) {
    if (!(key in expected)) out.push(`${join(path, key)}: ${describe(actual[key])}, absent in the example`);
    else diffAt(expected[key], actual[key], join(path, key), out);
  }
}

function diffArrays(expected: unknown[], actual: unknown[], path: string, out: string[]): void {
  if (expected.length === 0 && actual.length > 0) out.push(`${path}: ${actual.length} item(s), the example has []`);
  else if (expected.length > 0 && actual.length === 0) out.push(`${path}: [], the example has ${expected.length} item(s)`);
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
  if (want === 'object') return diffObjects(expected as Record<string, unknown>, actual as Record<string, unknown>, path, out);
  if (want === 'array') return diffArrays(expected as unknown[], actual as unknown[], at, out);
  // Values may differ; emptiness and zero may not appear where the example has a value.
  if ((actual === 0 && expected !== 0) || (actual === '' && expected !== '')) out.push(`${at}: ${describe(actual)}, the example has ${kindOf(expected)}`);
}

/** The differences of shape between a reference example and an answer, one line each; [] when they agree. */
export function shapeDiff(expected: unknown, actual: unknown): string[] {
  const out: string[] = [];
  diffAt(expected, actual, '', out);
  return out;
}
