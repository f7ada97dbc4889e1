import { compileFilter, type CompiledFilter, type Test, type TimeRange } from './compile.js';
import { parseDateItem } from './dates.js';
import type { Filter, Scalar } from './types.js';

/** Reads a field of the thing being tested (`price`, `metadata.color`...); undefined if absent. */
export type ValueGetter = (field: string) => unknown;

/** A value's items: an array's elements (nulls skipped), else the value itself, else none. */
export const itemsOf = (value: unknown): unknown[] =>
  Array.isArray(value)
    ? value.filter((item) => item !== null && item !== undefined)
    : value === null || value === undefined
      ? []
      : [value];

/** How many values a field holds: an array's length, 0 when null or missing, else 1. */
export const countOf = (value: unknown): number =>
  Array.isArray(value) ? value.length : value === null || value === undefined ? 0 : 1;

/** A value is present unless it is null, missing, an empty string or an empty array. */
export const hasValue = (value: unknown): boolean =>
  value !== null && value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);

/** Equality without coercion: 100 is not "100", true is not 1. */
const sameScalar = (item: unknown, operand: Scalar): boolean => typeof item === typeof operand && item === operand;

const TEXT_TESTS = {
  contains: (item: string, operand: string) => item.includes(operand),
  starts_with: (item: string, operand: string) => item.startsWith(operand),
  ends_with: (item: string, operand: string) => item.endsWith(operand),
};

const compare = (a: number, cmp: '>' | '<' | '>=' | '<=' | '=', b: number): boolean =>
  cmp === '>' ? a > b : cmp === '<' ? a < b : cmp === '>=' ? a >= b : cmp === '<=' ? a <= b : a === b;

export function inRange(ms: number, r: TimeRange): boolean {
  if (r.from !== undefined && (r.fromInclusive ? ms < r.from : ms <= r.from)) return false;
  if (r.to !== undefined && (r.toInclusive ? ms > r.to : ms >= r.to)) return false;
  return true;
}

/** Whether one field value passes one test. */
export function testValue(test: Test, value: unknown): boolean {
  const items = itemsOf(value);
  switch (test.type) {
    case 'equals':
      return test.negate !== items.some((item) => test.values.some((operand) => sameScalar(item, operand)));
    case 'text': {
      const match = TEXT_TESTS[test.mode];
      const hit = items.some((item) => typeof item === 'string' && test.values.some((operand) => match(item, operand)));
      return test.negate !== hit;
    }
    case 'compare':
      return items.some((item) => typeof item === 'number' && compare(item, test.cmp, test.value));
    case 'time':
      return items.some((item) => {
        const ms = parseDateItem(item);
        return ms !== undefined && inRange(ms, test.range);
      });
    case 'count':
      return compare(countOf(value), test.cmp, test.value);
    case 'present':
      return test.negate !== hasValue(value);
  }
}

/** Whether a thing passes a compiled filter: all conditions (`and`) or any (`or`). */
export function evaluateFilter(filter: CompiledFilter, get: ValueGetter): boolean {
  const passes = (c: CompiledFilter['conditions'][number]) => testValue(c.test, get(c.field));
  return filter.junction === 'and' ? filter.conditions.every(passes) : filter.conditions.some(passes);
}

/** Compiles and evaluates in one step: does the thing match the filter at `now`? */
export const matchesFilter = (filter: Filter, get: ValueGetter, now: Date): boolean =>
  evaluateFilter(compileFilter(filter, now), get);
