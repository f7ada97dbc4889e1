import { invalidQueryParams } from './errors.js';
import type { Query } from './pagination.js';

/**
 * A query string in the bracket form the official client sends (its `qs.stringify`:
 * `customer[source_id]=ann&item[0][price]=500`) as the object it was made from: each key's
 * brackets are its path, an object whose keys are all indexes 0..n-1 is an array. Values stay
 * text (a query has no types: the caller converts the fields it knows). A key given twice, a
 * path that is both a value and an object, and more than MAX_KEYS keys or MAX_DEPTH levels
 * are refused with 400 invalid_query_params.
 */
export const MAX_KEYS = 1000;
export const MAX_DEPTH = 6;

type Tree = { [key: string]: Tree | string };

function pathOf(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0 || !key.endsWith(']')) return [key];
  const inner = key.slice(open + 1, -1).split('][');
  if (inner.some((part) => part.includes('[') || part.includes(']'))) return [key];
  return [key.slice(0, open), ...inner];
}

function place(tree: Tree, path: string[], value: string, key: string): void {
  let node = tree;
  for (const [i, part] of path.entries()) {
    const last = i === path.length - 1;
    const existing = Object.hasOwn(node, part) ? node[part] : undefined;
    if (last) {
      if (existing !== undefined) throw invalidQueryParams(`Query parameter ${key} must be given once`);
      node[part] = value;
      return;
    }
    if (typeof existing === 'string')
      throw invalidQueryParams(`Query parameter ${key} conflicts with another parameter`);
    node = existing ?? (node[part] = Object.create(null) as Tree);
  }
}

function arraysOf(node: Tree | string): unknown {
  if (typeof node === 'string') return node;
  const keys = Object.keys(node);
  const indexed = keys.length > 0 && keys.every((k, i) => k === String(i));
  if (indexed) return keys.map((k) => arraysOf(node[k]!));
  return Object.fromEntries(keys.map((k) => [k, arraysOf(node[k]!)]));
}

export function nestedQuery(query: Query): Record<string, unknown> {
  const entries = Object.entries(query).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined);
  if (entries.length > MAX_KEYS) throw invalidQueryParams(`A query holds at most ${MAX_KEYS} parameters`);
  const tree: Tree = Object.create(null) as Tree;
  for (const [key, value] of entries) {
    if (Array.isArray(value)) throw invalidQueryParams(`Query parameter ${key} must be given once`);
    const path = pathOf(key);
    if (path.length > MAX_DEPTH)
      throw invalidQueryParams(`Query parameter ${key} is nested deeper than ${MAX_DEPTH} levels`);
    place(tree, path, value, key);
  }
  return arraysOf(tree) as Record<string, unknown>;
}
