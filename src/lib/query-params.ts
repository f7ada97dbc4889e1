import { mixed, object, type AnySchema, type Schema } from 'yup';
import { parseIsoDate } from './dates.js';
import { invalidQueryParams } from './errors.js';
import type { OrderBy, Query } from './pagination.js';

/**
 * Query parameters (and command-line flags, which are text too) as yup schemas, so they take
 * the same path as bodies: one schema per endpoint or command, validated at the edge by
 * `parse(schema, query, 'query')` or `parse(schema, flags, 'flags')`, every problem reported
 * at once, the result typed from the schema. Each parameter parses its text; a refusal travels from the transform to the
 * test as `Refused`, which is how yup collects it with the others.
 */
class Refused {
  constructor(readonly message: string) {}
}

/** A parameter's text parsed; undefined reads it as absent (a value the reference tolerates and ignores). */
type Parse<T> = (raw: string, name: string) => T | Refused | undefined;

/**
 * Builds a parameter's schema under the label its messages use ("Query parameter limit",
 * "--count"); `Out` is what the parsed values hold for it.
 */
export type ParamBuilder<Out> = ((label: string) => AnySchema) & { readonly __out?: Out };

/** One parameter: absent is undefined, repeated is refused. */
function param<T extends NonNullable<unknown>>(parse: Parse<T>): ParamBuilder<T | undefined>;
/** The same with a value for an absent parameter. */
function param<T extends NonNullable<unknown>>(parse: Parse<T>, fallback: T): ParamBuilder<T>;
function param<T extends NonNullable<unknown>>(parse: Parse<T>, fallback?: T): ParamBuilder<T | undefined> {
  // yup runs no transform on an absent value; its default stands in for it.
  return (label: string) =>
    mixed<T>()
      .default(fallback)
      .transform((value: unknown) => {
        if (typeof value !== 'string') return new Refused(`${label} must be given once`);
        return parse(value, label);
      })
      .test('query-param', '', function check(value) {
        return value instanceof Refused ? this.createError({ message: value.message }) : true;
      });
}

const refuse = (label: string, what: string) => new Refused(`${label} ${what}`);

function boundedInteger(min: number, max: number): Parse<number> {
  return (raw, name) => {
    if (!/^-?\d+$/.test(raw)) return refuse(name, 'must be an integer');
    const value = Number(raw);
    return value < min || value > max ? refuse(name, `must be between ${min} and ${max}`) : value;
  };
}

/** `limit`: 1..max (100), default 10. Out of range is an error, never a silent clamp. */
export const limit = (max = 100) => param(boundedInteger(1, max), 10);

/** `page`: 1..max (100 for most lists, 99 for customers and redemptions), default 1. */
export const page = (max: 99 | 100) => param(boundedInteger(1, max), 1);

/** A whole number from min to max (`vouchers_count`, `--length`); absent is `fallback` when given. */
export function integer(min: number, max: number): ParamBuilder<number | undefined>;
export function integer(min: number, max: number, fallback: number): ParamBuilder<number>;
export function integer(min: number, max: number, fallback?: number): ParamBuilder<number | undefined> {
  const parse: Parse<number> = (raw, label) =>
    /^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max
      ? Number(raw)
      : refuse(label, `must be an integer from ${min} to ${max}`);
  return fallback === undefined ? param(parse) : param(parse, fallback);
}

/**
 * `order`: one of the fields, optionally prefixed by `-` for descending; absent is undefined.
 * A value the list does not know is ignored (the list keeps its default order), as the real
 * API answers it rather than refusing it.
 */
export const order = <F extends string>(fields: readonly F[]) =>
  param<OrderBy<F>>((raw) => {
    const descending = raw.startsWith('-');
    const field = (descending ? raw.slice(1) : raw) as F;
    return fields.includes(field) ? { field, direction: descending ? 'desc' : 'asc' } : undefined;
  });

/** A single-valued text parameter. */
export const text = () => param<string>((raw) => raw);

/** An ISO 8601 date or date-time, as a UTC ISO string. */
export const date = () =>
  param<string>((raw, name) => parseIsoDate(raw) ?? refuse(name, 'must be an ISO 8601 date-time'));

/** One of the listed values. */
export const oneOf = <T extends string>(values: readonly T[]) =>
  param<T>((raw, name) =>
    values.includes(raw as T) ? (raw as T) : refuse(name, `must be one of: ${values.join(', ')}`),
  );

/** A parameter checked by `accepts`, refused with what `refusal` says of the value ("must be ..."). */
export const matching = <T extends string>(accepts: (raw: string) => raw is T, refusal: (raw: string) => string) =>
  param<T>((raw, name) => (accepts(raw) ? raw : refuse(name, refusal(raw))));

/**
 * The query with a repeatable parameter's values gathered under its name, in order: repeated
 * (`result=a&result=b`, which Koa gives as an array) or indexed as the official client's qs
 * sends arrays (`result[0]=a&result[1]=b`, `result[]=a`).
 */
export function gatherRepeated(query: Query | Record<string, unknown>, name: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const values: unknown[] = [];
  const indexed = new RegExp(`^${name}\\[\\d*\\]$`);
  for (const [key, value] of Object.entries(query)) {
    if (key === name || indexed.test(key))
      values.push(...(Array.isArray(value) ? value : value === undefined ? [] : [value]));
    else out[key] = value;
  }
  if (values.length > 0) out[name] = values;
  return out;
}

/** The parsed query of a schema built by `querySchema`, typed from its parameters. */
type Out<B> = B extends ParamBuilder<infer T> ? T : never;
export type QueryOf<P> = { [K in keyof P as undefined extends Out<P[K]> ? never : K]: Out<P[K]> } & {
  [K in keyof P as undefined extends Out<P[K]> ? K : never]?: Out<P[K]>;
};

function schemaOf<P extends Record<string, ParamBuilder<unknown>>>(
  params: P,
  labelOf: (name: string) => string,
): Schema<QueryOf<P>> {
  const shape = Object.fromEntries(Object.entries(params).map(([name, build]) => [name, build(labelOf(name))]));
  return object(shape) as unknown as Schema<QueryOf<P>>;
}

/**
 * An endpoint's query schema from its parameters, each under its own name. Parameters with
 * a fallback (limit, page) come out defined; the rest may be undefined.
 */
export const querySchema = <P extends Record<string, ParamBuilder<unknown>>>(params: P) =>
  schemaOf(params, (name) => `Query parameter ${name}`);

/** A command's flags (commander's camelCase option names), named `--kebab-case` in messages. */
export const flagsSchema = <P extends Record<string, ParamBuilder<unknown>>>(params: P) =>
  schemaOf(params, (name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);

/**
 * A list ordered by a field other than created_at reads that field's own index, which serves an
 * equality on that field only: other filters with it would sort every match, so the pair is
 * refused, naming the filters to drop. `filters` maps each filtered column to the parameter
 * that set it.
 */
export function refuseUnservedOrder(sort: OrderBy<string>, filters: Iterable<[string, string]>): void {
  if (sort.field === 'created_at') return;
  const others = [...filters].flatMap(([column, label]) => (column === sort.field ? [] : [label]));
  if (others.length === 0) return;
  const raw = `${sort.direction === 'desc' ? '-' : ''}${sort.field}`;
  throw invalidQueryParams(
    `Query parameter order=${raw} cannot be combined with ${others.join(', ')}: no index serves them together; filter with the default order (created_at) instead`,
  );
}
