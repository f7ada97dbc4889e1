import { invalidQueryParams } from './errors.js';

/** A query string as Koa parses it. */
export type Query = Record<string, string | string[] | undefined>;

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw invalidQueryParams(`Query parameter ${name} must be given once`);
  return value;
}

function boundedInteger(query: Query, name: string, min: number, max: number, fallback: number): number {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw invalidQueryParams(`Query parameter ${name} must be an integer`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw invalidQueryParams(`Query parameter ${name} must be between ${min} and ${max}`);
  }
  return value;
}

/** `limit`: 1..100, default 10. Out of range is an error, never a silent clamp. */
export const parseLimit = (query: Query, max = 100, fallback = 10): number =>
  boundedInteger(query, 'limit', 1, max, fallback);

/** `page`: 1..max (100 for most lists, 99 for customers and redemptions). */
export const parsePage = (query: Query, max: 99 | 100): number => boundedInteger(query, 'page', 1, max, 1);

export interface OrderBy<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

/**
 * `order`: one of the allowed field names, optionally prefixed by `-` for descending.
 * Returns undefined when absent so the caller applies its own default.
 */
export function parseOrder<F extends string>(query: Query, fields: readonly F[]): OrderBy<F> | undefined {
  const raw = single(query, 'order');
  if (raw === undefined) return undefined;
  const descending = raw.startsWith('-');
  const field = (descending ? raw.slice(1) : raw) as F;
  if (!fields.includes(field)) {
    const allowed = fields.flatMap((f) => [f, `-${f}`]).join(', ');
    throw invalidQueryParams(`Query parameter order must be one of: ${allowed}`);
  }
  return { field, direction: descending ? 'desc' : 'asc' };
}

/** An optional single-valued string parameter. */
export const parseString = (query: Query, name: string): string | undefined => single(query, name);

/** The list envelope of SPEC.md 2.1. */
export function listEnvelope<K extends string, T>(
  dataRef: K,
  items: T[],
  extra: { total?: number; has_more?: boolean; more_starting_after?: string } = {},
): { object: 'list'; data_ref: K } & Record<K, T[]> & typeof extra {
  return { object: 'list', data_ref: dataRef, [dataRef]: items, ...extra } as { object: 'list'; data_ref: K } &
    Record<K, T[]> &
    typeof extra;
}
