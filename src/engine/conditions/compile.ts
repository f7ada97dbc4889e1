import { parseIsoDate } from '../../lib/dates.js';
import { DAY_MS, startOfUtcDay } from './dates.js';
import type { Operator } from './operators.js';
import type { Filter, Junction, Scalar } from './types.js';

/**
 * A condition reduced to one of six tests, with dates already turned into bounds in ms for
 * the given "now". The evaluator and the SQL translation both work from this form, so they
 * cannot disagree about what `$less_than_ago: [7]` means at a given moment.
 *
 * A value's items are its elements when it is an array, else the value itself (none when it
 * is null or missing). Item tests hold when some item passes; `negate` flips the outcome.
 */
export type Test =
  | { type: 'equals'; values: Scalar[]; negate: boolean }
  | { type: 'text'; mode: 'contains' | 'starts_with' | 'ends_with'; values: string[]; negate: boolean }
  | { type: 'compare'; cmp: '>' | '<' | '>=' | '<='; value: number }
  | { type: 'time'; range: TimeRange }
  | { type: 'count'; cmp: '=' | '<' | '>'; value: number }
  | { type: 'present'; negate: boolean };

/** A span of time in ms since the epoch; an absent end is open. */
export interface TimeRange {
  from?: number;
  fromInclusive: boolean;
  to?: number;
  toInclusive: boolean;
}

export interface CompiledCondition {
  field: string;
  test: Test;
}

export interface CompiledFilter {
  junction: Junction;
  conditions: CompiledCondition[];
}

const range = (
  from: number | undefined,
  fromInclusive: boolean,
  to: number | undefined,
  toInclusive: boolean,
): TimeRange => ({
  from,
  fromInclusive,
  to,
  toInclusive,
});

/** The time range of a date operator; `n` is its operand (days, or a date for $after/$before). */
function timeRange(operator: Operator, operand: unknown, now: number): TimeRange {
  const days = Number(operand) * DAY_MS;
  const today = startOfUtcDay(now);
  switch (operator) {
    case '$after':
      return range(Date.parse(parseIsoDate(operand) as string), false, undefined, false);
    case '$before':
      return range(undefined, false, Date.parse(parseIsoDate(operand) as string), false);
    case '$is_days_ago':
      return range(today - days, true, today - days + DAY_MS, false);
    case '$is_days_in_future':
      return range(today + days, true, today + days + DAY_MS, false);
    case '$more_than_ago':
      return range(undefined, false, now - days, false);
    case '$less_than_ago':
      return range(now - days, false, now, true);
    case '$more_than_future':
      return range(now + days, false, undefined, false);
    default: // $less_than_future
      return range(now, true, now + days, false);
  }
}

const COMPARE = { $more_than: '>', $less_than: '<', $more_than_equal: '>=', $less_than_equal: '<=' } as const;
const COUNT = { $count: '=', $count_less: '<', $count_more: '>' } as const;
const TEXT = {
  $contains: ['contains', false],
  $not_contain: ['contains', true],
  $starts_with: ['starts_with', false],
  $ends_with: ['ends_with', false],
} as const;

function compileCondition(operator: Operator, operands: unknown[], now: number): Test {
  switch (operator) {
    case '$in':
    case '$is':
      return { type: 'equals', values: operands as Scalar[], negate: false };
    case '$not_in':
    case '$is_not':
      return { type: 'equals', values: operands as Scalar[], negate: true };
    case '$has_value':
      return { type: 'present', negate: false };
    case '$is_unknown':
      return { type: 'present', negate: true };
    case '$contains':
    case '$not_contain':
    case '$starts_with':
    case '$ends_with':
      return { type: 'text', mode: TEXT[operator][0], values: operands as string[], negate: TEXT[operator][1] };
    case '$more_than':
    case '$less_than':
    case '$more_than_equal':
    case '$less_than_equal':
      return { type: 'compare', cmp: COMPARE[operator], value: operands[0] as number };
    case '$count':
    case '$count_less':
    case '$count_more':
      return { type: 'count', cmp: COUNT[operator], value: operands[0] as number };
    default:
      return { type: 'time', range: timeRange(operator, operands[0], now) };
  }
}

/** Reduces a validated filter to tests, with relative dates fixed at `now`. */
export function compileFilter(filter: Filter, now: Date): CompiledFilter {
  const at = now.getTime();
  return {
    junction: filter.junction,
    conditions: filter.conditions.map((c) => ({ field: c.field, test: compileCondition(c.operator, c.operands, at) })),
  };
}
