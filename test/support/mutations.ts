/**
 * One-field mutations of a valid request body, for the mutation sweep
 * (test/api/robustness-mutations.test.ts): every node of the body, at every depth, replaced
 * by a value of another kind, emptied, lengthened, removed, or given an unknown sibling key.
 * Numbers JSON.stringify cannot write (2^53+1, 1e400) travel as raw text through sentinels.
 */
import { seededRandom } from './random.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Mutation {
  /** Where and what, e.g. `voucher.discount.percent_off = -1`. */
  label: string;
  /** The field's path in the body (array indexes as numbers). */
  path: Array<string | number>;
  /** The mutated body as sent. */
  raw: string;
  /** The mutated body as JSON.parse reads it (for the reference's request schema). */
  body: unknown;
}

const RAW_NUMBERS: Record<string, string> = { '\u0001big': '9007199254740993', '\u0001inf': '1e400' };

const deep = (levels: number): Json => {
  let node: Json = 'bottom';
  for (let i = 0; i < levels; i += 1) node = i % 2 === 0 ? { a: node } : [node];
  return node;
};

/** Every replacement value a field is tried with. */
export const REPLACEMENTS: Array<[string, Json]> = [
  ['a string', 'x'],
  ['a number', 5],
  ['true', true],
  ['null', null],
  ['an empty array', []],
  ['an empty object', {}],
  ['an empty string', ''],
  ['10,000 characters', 'é'.repeat(10_000)],
  ['emoji and unicode', '💥 Żółć 漢字 \u202e'],
  ['a NUL character', 'a\u0000b'],
  ['-1', -1],
  ['0', 0],
  ['1.5', 1.5],
  ['2^53+1', '\u0001big'],
  ['1e308', 1e308],
  ['1e400', '\u0001inf'],
  ['deep nesting', deep(300)],
  ['an array of one string', ['x']],
];

function replaceAt(
  root: Json,
  path: Array<string | number>,
  change: (parent: Json[] | Record<string, Json>, key: string | number) => void,
): Json {
  const copy = structuredClone(root);
  let node = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  change(node as Json[] | Record<string, Json>, path[path.length - 1] as string | number);
  return copy;
}

function serialize(body: Json): string {
  let raw = JSON.stringify(body);
  for (const [sentinel, text] of Object.entries(RAW_NUMBERS)) raw = raw.replaceAll(JSON.stringify(sentinel), text);
  return raw;
}

function nodes(value: Json, path: Array<string | number> = []): Array<{ path: Array<string | number>; value: Json }> {
  const here = path.length > 0 ? [{ path, value }] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => nodes(item, [...path, i]))];
  if (value !== null && typeof value === 'object')
    return [...here, ...Object.entries(value).flatMap(([k, v]) => nodes(v, [...path, k]))];
  return here;
}

const objectsOf = (value: Json, path: Array<string | number> = []): Array<Array<string | number>> => {
  if (Array.isArray(value)) return value.flatMap((item, i) => objectsOf(item, [...path, i]));
  if (value === null || typeof value !== 'object') return [];
  return [path, ...Object.entries(value).flatMap(([k, v]) => objectsOf(v, [...path, k]))];
};

const mutation = (label: string, path: Array<string | number>, body: Json): Mutation => {
  const raw = serialize(body);
  return { label, path, raw, body: JSON.parse(raw) };
};

/** Every one-field mutation of a valid body. */
export function mutationsOf(valid: Json): Mutation[] {
  const out: Mutation[] = [];
  for (const { path } of nodes(valid)) {
    const where = path.join('.');
    for (const [label, value] of REPLACEMENTS) {
      out.push(
        mutation(
          `${where} = ${label}`,
          path,
          replaceAt(valid, path, (parent, key) => void ((parent as Record<string | number, Json>)[key] = value)),
        ),
      );
    }
    if (typeof path[path.length - 1] === 'string') {
      out.push(
        mutation(
          `${where} removed`,
          path,
          replaceAt(valid, path, (parent, key) => void delete (parent as Record<string | number, Json>)[key]),
        ),
      );
    }
  }
  for (const path of objectsOf(valid)) {
    const body =
      path.length === 0
        ? { ...(valid as Record<string, Json>), zz_unknown: 1 }
        : replaceAt(valid, path, (parent, key) => {
            (parent as Record<string | number, Json>)[key] = {
              ...((parent as Record<string | number, Json>)[key] as Record<string, Json>),
              zz_unknown: 1,
            };
          });
    out.push(mutation(`${path.join('.') || 'body'} + an unknown key`, [...path, 'zz_unknown'], body));
  }
  return out;
}

/** At most `count` of `items`, the same ones every run for the same seed, in their order. */
export function sample<T>(items: T[], count: number, seed: number): T[] {
  if (items.length <= count) return items;
  const random = seededRandom(seed);
  const keyed = items.map((item, index) => ({ item, index, key: random() }));
  return keyed
    .sort((a, b) => a.key - b.key)
    .slice(0, count)
    .sort((a, b) => a.index - b.index)
    .map((k) => k.item);
}
