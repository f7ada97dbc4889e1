/**
 * The 25 condition operators of the reference's product collection filters, the kinds of field each applies to, and the
 * operands each takes. Every operator takes an array of operands.
 */
export const OPERATORS = [
  '$in',
  '$not_in',
  '$is',
  '$is_days_ago',
  '$is_days_in_future',
  '$is_not',
  '$has_value',
  '$is_unknown',
  '$contains',
  '$not_contain',
  '$starts_with',
  '$ends_with',
  '$more_than',
  '$less_than',
  '$more_than_ago',
  '$less_than_ago',
  '$more_than_future',
  '$less_than_future',
  '$more_than_equal',
  '$less_than_equal',
  '$after',
  '$before',
  '$count',
  '$count_less',
  '$count_more',
] as const;

export type Operator = (typeof OPERATORS)[number];

const KNOWN = new Set<string>(OPERATORS);
export const isOperator = (value: string): value is Operator => KNOWN.has(value);

/**
 * What a field holds, for the validator: which operators apply and what operands they take.
 * `any` (metadata) accepts every operator; arrays of strings are `string_array`.
 */
export type FieldKind = 'string' | 'number' | 'date' | 'string_array' | 'any';

/** The operands an operator takes. `scalar` is decided by the field: strings, numbers, or both. */
export type OperandShape =
  | 'scalars' // one or more equality operands
  | 'scalar' // exactly one equality operand
  | 'ignored' // any array; its items are not used
  | 'strings' // one or more non-empty strings
  | 'number' // exactly one finite number
  | 'date' // exactly one ISO 8601 date or date-time
  | 'days' // exactly one non-negative integer (a number of days)
  | 'count'; // exactly one non-negative integer

export type OperatorFamily = 'equality' | 'presence' | 'text' | 'compare' | 'time' | 'count';

export interface OperatorSpec {
  family: OperatorFamily;
  operands: OperandShape;
}

export const OPERATOR_SPECS: Record<Operator, OperatorSpec> = {
  $in: { family: 'equality', operands: 'scalars' },
  $not_in: { family: 'equality', operands: 'scalars' },
  $is: { family: 'equality', operands: 'scalar' },
  $is_not: { family: 'equality', operands: 'scalar' },
  $has_value: { family: 'presence', operands: 'ignored' },
  $is_unknown: { family: 'presence', operands: 'ignored' },
  $contains: { family: 'text', operands: 'strings' },
  $not_contain: { family: 'text', operands: 'strings' },
  $starts_with: { family: 'text', operands: 'strings' },
  $ends_with: { family: 'text', operands: 'strings' },
  $more_than: { family: 'compare', operands: 'number' },
  $less_than: { family: 'compare', operands: 'number' },
  $more_than_equal: { family: 'compare', operands: 'number' },
  $less_than_equal: { family: 'compare', operands: 'number' },
  $after: { family: 'time', operands: 'date' },
  $before: { family: 'time', operands: 'date' },
  $is_days_ago: { family: 'time', operands: 'days' },
  $is_days_in_future: { family: 'time', operands: 'days' },
  $more_than_ago: { family: 'time', operands: 'days' },
  $less_than_ago: { family: 'time', operands: 'days' },
  $more_than_future: { family: 'time', operands: 'days' },
  $less_than_future: { family: 'time', operands: 'days' },
  $count: { family: 'count', operands: 'count' },
  $count_less: { family: 'count', operands: 'count' },
  $count_more: { family: 'count', operands: 'count' },
};

/** The operator families each kind of field accepts. */
export const FAMILIES_OF_KIND: Record<FieldKind, ReadonlySet<OperatorFamily>> = {
  string: new Set(['equality', 'presence', 'text']),
  number: new Set(['equality', 'presence', 'compare']),
  date: new Set(['presence', 'time']),
  string_array: new Set(['equality', 'presence', 'text', 'count']),
  any: new Set(['equality', 'presence', 'text', 'compare', 'time', 'count']),
};
